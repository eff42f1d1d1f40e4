// ssdprobe's entry point: everything lives in the library
// (src/cli/commands.cc; cli/main_entry.h declares it).
#include "cli/main_entry.h"

int main(int argc, char** argv) { return ssdprobe::ssdprobe_main(argc, argv); }
