# Header-only dependencies: the system's packages first (Debian: libcli11-dev, doctest-dev,
# nlohmann-json3-dev), else FetchContent from the projects' release archives.
include(FetchContent)

macro(puzzle_dependency name target url)
  find_package(${name} CONFIG QUIET)
  if(NOT TARGET ${target})
    message(STATUS "${name}: not installed, fetching ${url}")
    FetchContent_Declare(${name} URL ${url} DOWNLOAD_EXTRACT_TIMESTAMP ON)
    FetchContent_MakeAvailable(${name})
  endif()
endmacro()

puzzle_dependency(CLI11 CLI11::CLI11
  https://github.com/CLIUtils/CLI11/archive/refs/tags/v2.4.2.tar.gz)
puzzle_dependency(nlohmann_json nlohmann_json::nlohmann_json
  https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz)
puzzle_dependency(doctest doctest::doctest
  https://github.com/doctest/doctest/archive/refs/tags/v2.4.11.tar.gz)
