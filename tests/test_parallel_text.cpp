#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "attn/data/parallel_text.hpp"

using attn::DataError;
using attn::ParallelExample;

namespace {

// Writes `bytes` to a file in the temp folder and returns its path.
std::string write_temp(const std::string& name, const std::string& bytes) {
  const std::string path = (std::filesystem::temp_directory_path() / ("attn-test-parallel-" + name)).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string file_error(const std::string& name, const std::string& bytes, const attn::ParallelLimits& limits = {}) {
  const std::string path = write_temp(name, bytes);
  try {
    attn::load_parallel_text_file(path, limits);
  } catch (const DataError& e) {
    std::filesystem::remove(path);
    return e.what();
  }
  std::filesystem::remove(path);
  return "(no error)";
}

}  // namespace

TEST_CASE("parallel_text.tatoeba_file_with_and_without_attribution") {
  const std::string tatoeba =
      "\xef\xbb\xbfGo.\tVa !\tCC-BY 2.0 (France) Attribution: tatoeba.org #2877272 (CM) & #1158250 (Wittydev)\r\n"
      "\n"
      "Hi.\tSalut !\tCC-BY 2.0 (France) Attribution: tatoeba.org #538123 (CM) & #509819 (Aiji)\r\n";
  const std::string path = write_temp("tatoeba.txt", tatoeba);
  const auto with_third = attn::load_parallel_text_file(path);
  std::filesystem::remove(path);
  REQUIRE(with_third.size() == 2);
  CHECK(with_third[0].source == "Go.");  // BOM skipped
  CHECK(with_third[0].target == "Va !");
  CHECK(with_third[1].source == "Hi.");
  CHECK(with_third[1].target == "Salut !");  // CR removed, attribution ignored

  const std::string two_columns = "I see.\tJe comprends.\n Caf\xc3\xa9 ? \t Un caf\xc3\xa9.  ";  // no final newline
  const auto plain = attn::load_parallel_text_bytes(reinterpret_cast<const std::uint8_t*>(two_columns.data()),
                                                    two_columns.size(), "pairs.tsv");
  REQUIRE(plain.size() == 2);
  CHECK(plain[1].source == "Caf\xc3\xa9 ?");  // spaces around each side trimmed
  CHECK(plain[1].target == "Un caf\xc3\xa9.");
}

TEST_CASE("parallel_text.malformed_files_name_file_and_line") {
  const std::string dir = std::filesystem::temp_directory_path().string() + "/attn-test-parallel-";
  CHECK(file_error("a.tsv", "Go.\tVa !\nHello\n") ==
        dir + "a.tsv:2: expected 'source<TAB>target' but the line has no tab");
  CHECK(file_error("b.tsv", "Go.\tVa !\n\n \tVide\n") == dir + "b.tsv:3: the source (before the first tab) is empty");
  CHECK(file_error("c.tsv", "Go.\t\tCC-BY\n") == dir + "c.tsv:1: the target (after the first tab) is empty");
  CHECK(file_error("d.tsv", "Go.\tVa !\nCaf\xc3\xa9\tcaf\xff\n") ==
        dir + "d.tsv:2: invalid UTF-8 (byte 0xff at column 9); save the file as UTF-8");
  CHECK(file_error("e.tsv", "") == dir + "e.tsv: the file is empty");
  CHECK(file_error("f.tsv", "\r\n  \n") == dir + "f.tsv: the file is empty");
  attn::ParallelLimits small;
  small.max_line_bytes = 8;
  CHECK(file_error("g.tsv", "a\tb\nabcd\tefghi\n", small) == dir + "g.tsv:2: line is longer than the limit of 8 bytes");
  small.max_line_bytes = 100;
  small.max_examples = 2;
  CHECK(file_error("h.tsv", "a\tb\nc\td\ne\tf\n", small) == dir + "h.tsv: more than 2 pairs (the limit)");
  CHECK_THROWS_WITH_AS(attn::load_parallel_text_file(dir + "missing.tsv"), doctest::Contains("missing.tsv"), DataError);
}

TEST_CASE("parallel_text.binary_files_are_recognised_before_parsing") {
  const auto bytes_error = [](const std::string& bytes) {
    try {
      attn::load_parallel_text_bytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), "f.bin");
    } catch (const DataError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  using namespace std::string_literals;
  // The .zip manythings.org distributes, a gzip stream, UTF-16 text, and other binary data (NUL
  // bytes early, without a tab or line break that would give another message first).
  CHECK(bytes_error("PK\x03\x04\x14\x00\x00\x00fra.txt"s) ==
        "f.bin: this is a zip archive, not a text file: extract the .txt or .tsv inside and load that");
  CHECK(bytes_error("\x1f\x8b\x08\x00\x00\x00"s) ==
        "f.bin: this is a gzip-compressed file, not a text file: decompress it first");
  CHECK(bytes_error("\xff\xfeG\x00o\x00\t\x00"s) == "f.bin: this file is UTF-16, not UTF-8: save it as UTF-8");
  CHECK(bytes_error("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"s) ==
        "f.bin: this is not a text file (it contains NUL bytes)");
  CHECK(bytes_error("Go.\tVa !\n"s + std::string(200, 'x') + std::string(1, '\0')) ==
        "f.bin: this is not a text file (it contains NUL bytes)");
  // A NUL beyond the first 4 KiB is caught on its line.
  std::string late;
  for (int i = 0; i < 500; ++i) late += "Go.\tVa !\n";
  late += "Hi.\tSa\0lut\n"s;
  CHECK(bytes_error(late) == "f.bin:501: this is not a text file (it contains NUL bytes)");
}

TEST_CASE("parallel_text.report_counts_lines_skipped_and_attributions") {
  const std::string text = "\nGo.\tVa !\tCC-BY\n  \t \nHi.\tSalut !\n\r\nRun!\tCours !\tCC-BY\n";
  attn::ParallelLoadReport report;
  const auto pairs = attn::load_parallel_text_bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
                                                    "pairs.tsv", {}, &report);
  CHECK(pairs.size() == 3);
  CHECK(report.pairs == 3);
  CHECK(report.lines == 6);
  CHECK(report.blank_lines == 3);
  CHECK(report.with_attribution == 2);
  CHECK(report.summary() == "3 pairs from 6 lines; skipped 3 blank lines");
  attn::ParallelLoadReport clean{1234, 1234, 0, 0};
  CHECK(clean.summary() == "1,234 pairs from 1,234 lines");
}

TEST_CASE("parallel_text.vocabularies_and_encoding") {
  const std::vector<ParallelExample> pairs = {{"Go.", "Va !"}, {"Go on.", "Continue."}, {"Hi.", "Salut !"}};
  const attn::ParallelVocabularies v = attn::fit_vocabularies(pairs, attn::TokenLevel::word, 6, 100);
  CHECK(v.source.tokens() == std::vector<std::string>{".", "go"});  // the 2 most frequent of ., go, on, hi
  CHECK(v.target.tokens() == std::vector<std::string>{"!", "va", "continue", ".", "salut"});
  const attn::EncodedPairs encoded = attn::encode_pairs(pairs, v);
  REQUIRE(encoded.sources.size() == 3);
  CHECK(encoded.sources[1] == std::vector<int>{5, 3, 4});     // go <unk> .
  CHECK(encoded.targets[2] == std::vector<int>{1, 8, 4, 2});  // BOS salut ! EOS
  CHECK(v.target.decode(encoded.targets[0]) == "va !");
}
