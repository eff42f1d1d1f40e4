// What the generated texts (man page, bash completion, usage lines) need to
// know about a command's options, read from the CLI11 app itself so that an
// option added anywhere shows up in all of them: which options a user sees,
// the words an option's value may be, whether a value is a file, a
// directory or free text, and whether an operand repeats.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace ssdprobe {

// Subcommands with a name, in the order they were added.
std::vector<const CLI::App*> commands_of(const CLI::App& app);

// Options shown to users: not positional, not hidden (CLI11 hides an option
// whose group is empty: --help-man and --completion).
std::vector<const CLI::Option*> shown_options(const CLI::App& app);
std::vector<const CLI::Option*> positionals_of(const CLI::App& app);

bool takes_value(const CLI::Option* o);  // flags expect none
bool repeats(const CLI::Option* o);      // a vector operand: RESULT.json...
std::vector<std::string> spellings(const CLI::Option* o);  // "-q", "--quiet"
std::string long_spelling(const CLI::Option* o);           // "--quiet", else "-q"

// The value's name as declared (type_name), without the validators' text
// CLI11 appends ("NAME:{read,write}" -> "NAME").
std::string value_name(const CLI::Option* o);

// The only words a value may be, in their declared order: the set of an
// IsMember check (plot --grid), else a value name made of literal words
// ("png|svg", "auto|uring|psync|passthru"); empty for any other value.
std::vector<std::string> value_choices(const CLI::Option* o);

// A value name part that is typed as is ("png", "-"), not a placeholder
// for something the user picks ("FILE", "RESULT.json").
bool is_literal(const std::string& part);

// What an option's value, or an operand, names, for completing it.
enum class ValueKind { free, choice, file, json_file, directory, target };
ValueKind value_kind(const CLI::Option* o);

// "[OPTIONS] TARGET", "[OPTIONS] RESULT.json..." for one command, as the
// usage line of --help shows it (`ellipsis` marks a repeated operand).
std::string arguments_of(const CLI::App& app, const std::string& ellipsis);

}  // namespace ssdprobe
