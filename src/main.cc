// ssdprobe's entry point: everything lives in the library (src/cli/commands.cc).
#include "cli/commands.h"

int main(int argc, char** argv) { return ssdprobe::ssdprobe_main(argc, argv); }
