// Everything generated from the command-line definition itself (the CLI11
// app with its option table and subcommands), so none of it can drift from
// the options: --help folded to the terminal, and the hidden outputs
// `--help-man` (the man page, roff) and `--completion bash` (a bash
// completion script) that the build turns into installed files.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

namespace ssdprobe {

// Sets the help formatter of `app` and every subcommand: lines folded at
// `width`, and the usage naming the subcommands as they are called
// ("ssdprobe info|audit|restore ... [OPTIONS] TARGET"). Call after every
// subcommand has been added.
void configure_help(CLI::App& app, size_t width);

// The hidden options that print the generated files; `requested()` after
// parsing says whether one was given.
struct GeneratedOutputs {
  bool man = false;
  std::string completion;  // the shell asked for ("bash"), or empty
  bool requested() const { return man || !completion.empty(); }
};
void add_generated_outputs(CLI::App& app, GeneratedOutputs& outputs);

// Prints what `outputs` asks for on standard output; returns the exit code
// (2 for a shell other than bash).
int print_generated_output(const CLI::App& app, const GeneratedOutputs& outputs);

// The texts themselves, for tests.
std::string man_page(const CLI::App& app);
std::string bash_completion(const CLI::App& app);
std::string folded_help(const std::string& help, size_t width);

}  // namespace ssdprobe
