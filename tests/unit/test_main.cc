// Catch2 v2 main for every Catch-based test binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
