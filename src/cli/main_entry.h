// The program's entry point, declared apart from the subcommands
// (cli/commands.h) so that src/main.cc compiles without CLI11 and the run
// options behind them: with them, that one line took 9.5 s of a 107 s
// build of the program.
#pragma once

namespace ssdprobe {

// Parses argv, dispatches, and maps any Error to its exit code.
int ssdprobe_main(int argc, char** argv);

}  // namespace ssdprobe
