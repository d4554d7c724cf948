// Locates committed fixture files (tests/fixtures/) from the test sources' own path, so tests
// run from any working directory.
#pragma once

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace test_fixtures {

inline std::string path(const std::string& name) {
#ifdef ATTN_TEST_FIXTURES_DIR
  // The build names the folder (CMakeLists.txt): __FILE__ may be relative to the build folder
  // (a compiler cache rewrites paths), which would tie the tests to one working directory.
  return std::string(ATTN_TEST_FIXTURES_DIR) + "/" + name;
#else
  std::string here = __FILE__;  // .../tests/support/fixture_files.hpp
  here.erase(here.find_last_of('/'));
  here.erase(here.find_last_of('/'));
  return here + "/fixtures/" + name;
#endif
}

inline std::vector<std::uint8_t> read(const std::string& name) {
  std::ifstream file(path(name), std::ios::binary);
  if (!file) throw std::runtime_error("missing fixture " + path(name));
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

}  // namespace test_fixtures
