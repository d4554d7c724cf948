// Reads tests/fixtures/bleu_cases.txt (format in its header): the BLEU cases the native test, the
// nltk comparison and the wasm test share.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn::test {

struct BleuCase {
  std::string name;
  std::vector<std::vector<std::string>> hypotheses;               // [N][tokens]
  std::vector<std::vector<std::vector<std::string>>> references;  // [N][R_i][tokens]
};

inline std::vector<std::string> split_on(const std::string& text, const std::string& separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(separator, start)) != std::string::npos; start = at + separator.size())
    out.push_back(text.substr(start, at - start));
  out.push_back(text.substr(start));
  return out;
}

inline std::vector<BleuCase> read_bleu_cases(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<BleuCase> cases;
  BleuCase current;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t space = line.find(' ');
    const std::string word = line.substr(0, space);
    const std::string rest = space == std::string::npos ? "" : line.substr(space + 1);
    if (word == "case") {
      current = BleuCase{rest, {}, {}};
    } else if (word == "hyp") {
      current.hypotheses.push_back(split_on(rest, " "));
    } else if (word == "ref") {
      std::vector<std::vector<std::string>> refs;
      for (const std::string& r : split_on(rest, " | ")) refs.push_back(split_on(r, " "));
      current.references.push_back(refs);
    } else if (word == "end") {
      cases.push_back(current);
    } else {
      throw std::runtime_error(path + ": unexpected line '" + line + "'");
    }
  }
  return cases;
}

}  // namespace attn::test
