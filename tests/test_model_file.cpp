#include <doctest/doctest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "attn/io/model_file.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
namespace fs = std::filesystem;

namespace {

float from_bits(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, 4);
  return x;
}
std::uint32_t to_bits(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  return bits;
}

// A two-tensor "model" whose values are awkward floats: NaN payloads, −0, denormals, inf.
struct TinyModel {
  Tensor2 w = xt::zeros<float>({2, 3});
  Tensor2 dw = xt::zeros<float>({2, 3});
  Tensor1 b = xt::zeros<float>({2});
  Tensor1 db = xt::zeros<float>({2});
  ParameterList params;

  TinyModel() {
    add_parameter(params, "dense.", "w", w, dw);
    add_parameter(params, "dense.", "b", b, db);
  }
  void fill_awkward() {
    const std::uint32_t bits[] = {0x7FC12345u,   // quiet NaN with a payload
                                  0xFF800001u,   // signalling NaN, sign set
                                  0x80000000u,   // −0
                                  0x00000001u,   // smallest denormal
                                  0x807FFFFFu,   // largest negative denormal
                                  0x7F800000u};  // +inf
    for (std::size_t i = 0; i < 6; ++i) w.data()[i] = from_bits(bits[i]);
    b(0) = std::numeric_limits<float>::max();
    b(1) = -1.5f;
  }
};

std::vector<std::uint8_t> small_file() {
  TinyModel m;  // fill in place: assigning new tensors would move the buffers params point to
  for (std::size_t i = 0; i < 6; ++i) m.w.data()[i] = static_cast<float>(i + 1);
  m.b(0) = 7;
  m.b(1) = 8;
  return save_model("{\"kind\":\"tiny\"}", m.params);
}

void put_u32(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t x) {
  for (int k = 0; k < 4; ++k) bytes.at(at + k) = static_cast<std::uint8_t>(x >> (8 * k));
}
void put_u64(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint64_t x) {
  for (int k = 0; k < 8; ++k) bytes.at(at + k) = static_cast<std::uint8_t>(x >> (8 * k));
}
// Recomputes the trailing checksum, so a test reaches the structural check it aims at.
void reseal(std::vector<std::uint8_t>& bytes) {
  put_u32(bytes, bytes.size() - 4, crc32(bytes.data(), bytes.size() - 4));
}

// A fresh, empty folder under the system temp folder, removed at the end of the test.
struct TempFolder {
  fs::path path;
  TempFolder() {
    const std::string name = "attn_model_file_test_" + std::to_string(::getpid());
    path = fs::temp_directory_path() / name;
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempFolder() { fs::remove_all(path); }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path)) out.push_back(e.path().filename().string());
    return out;
  }
};

}  // namespace

TEST_CASE("model_file.crc32_check_value") {
  // The standard CRC-32 check: crc32("123456789") = 0xCBF43926.
  const char* digits = "123456789";
  CHECK(crc32(reinterpret_cast<const std::uint8_t*>(digits), 9) == 0xCBF43926u);
  CHECK(crc32(nullptr, 0) == 0u);
}

TEST_CASE("model_file.byte_layout_is_little_endian") {
  // Config "{}", one tensor "b" of shape [2] = [1, −0]:
  //   "ATTNMODL" | 1 | 2 "{}" | 1 tensor | 1 "b" | rank 1 | 2 (u64) | 0x3F800000 0x80000000 | CRC
  // CRC-32 of those 47 bytes (zlib.crc32) = 0x3E540776.
  Tensor1 b = test::vector({1.f, -0.f});
  Tensor1 db = xt::zeros<float>({2});
  ParameterList params;
  add_parameter(params, "", "b", b, db);
  const std::vector<std::uint8_t> bytes = save_model("{}", params);
  const std::vector<std::uint8_t> expected = {'A', 'T', 'T',  'N',  'M', 'O', 'D', 'L',  1,    0,    0,    0,   2,
                                              0,   0,   0,    '{',  '}', 1,   0,   0,    0,    1,    0,    0,   0,
                                              'b', 1,   0,    0,    0,   2,   0,   0,    0,    0,    0,    0,   0,
                                              0,   0,   0x80, 0x3F, 0,   0,   0,   0x80, 0x76, 0x07, 0x54, 0x3E};
  CHECK(bytes == expected);
}

TEST_CASE("model_file.round_trip_is_bit_exact") {
  TinyModel saved;
  saved.fill_awkward();
  const std::string config = "{\"model\":\"tiny\",\"name\":\"caf\xC3\xA9\"}";
  const std::vector<std::uint8_t> bytes = save_model(config, saved.params);
  const ModelFile file = read_model(bytes);
  CHECK(file.version == 1);
  CHECK(file.config_json == config);
  REQUIRE(file.tensors.size() == 2);
  CHECK(file.tensors[0].name == "dense.w");
  CHECK(file.tensors[0].shape == std::vector<std::size_t>{2, 3});
  CHECK(file.tensors[1].name == "dense.b");
  CHECK(file.tensors[1].shape == std::vector<std::size_t>{2});

  TinyModel loaded;
  load_parameters(file, loaded.params);
  for (std::size_t i = 0; i < 6; ++i) {
    INFO("w[" << i << "]");
    CHECK(to_bits(loaded.w.data()[i]) == to_bits(saved.w.data()[i]));
  }
  CHECK(to_bits(loaded.w.data()[0]) == 0x7FC12345u);
  CHECK(to_bits(loaded.w.data()[1]) == 0xFF800001u);
  CHECK(to_bits(loaded.b(0)) == to_bits(std::numeric_limits<float>::max()));
  CHECK(loaded.b(1) == -1.5f);
  // Saving what was loaded gives the same bytes.
  CHECK(save_model(config, loaded.params) == bytes);
}

TEST_CASE("model_file.empty_and_foreign_files") {
  CHECK_THROWS_WITH_AS(read_model(nullptr, 0), "not an Attention Playground model file (it is empty)", ModelFileError);
  const std::vector<std::uint8_t> zip = {'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  CHECK_THROWS_WITH_AS(read_model(zip), "not an Attention Playground model file (bad magic)", ModelFileError);
  const std::vector<std::uint8_t> json = {'{', '}'};
  CHECK_THROWS_WITH_AS(read_model(json), "not an Attention Playground model file (bad magic)", ModelFileError);
}

TEST_CASE("model_file.future_version") {
  std::vector<std::uint8_t> bytes = small_file();
  put_u32(bytes, 8, 7);
  reseal(bytes);
  CHECK_THROWS_WITH_AS(read_model(bytes), "model file version 7 is not supported (this build reads version 1)",
                       ModelFileError);
}

TEST_CASE("model_file.every_prefix_is_rejected") {
  const std::vector<std::uint8_t> bytes = small_file();
  REQUIRE_NOTHROW(read_model(bytes));
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    // A fresh heap copy of exactly n bytes: reading past it would trip ASan (ATTN_SANITIZE).
    const std::vector<std::uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    INFO("prefix of " << n << " bytes");
    CHECK_THROWS_AS(read_model(prefix.data(), prefix.size()), ModelFileError);
  }
  // 12 bytes: magic and version, then the config length is missing.
  const std::vector<std::uint8_t> twelve(bytes.begin(), bytes.begin() + 12);
  CHECK_THROWS_WITH_AS(read_model(twelve),
                       "model file is truncated: expected 4 more bytes at offset 12 (config length), but only 0 remain",
                       ModelFileError);
}

TEST_CASE("model_file.every_flipped_byte_is_rejected") {
  const std::vector<std::uint8_t> bytes = small_file();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (std::uint8_t mask : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xFF}}) {
      std::vector<std::uint8_t> bad = bytes;
      bad[i] ^= mask;
      INFO("byte " << i << " xor " << int(mask));
      CHECK_THROWS_AS(read_model(bad), ModelFileError);
    }
  }
  // A flip inside the float data leaves the structure intact: only the checksum catches it.
  std::vector<std::uint8_t> bad = bytes;
  bad.at(bytes.size() - 10) ^= 0x04;
  CHECK_THROWS_WITH_AS(read_model(bad), "model file is corrupted: checksum mismatch", ModelFileError);
}

TEST_CASE("model_file.huge_declared_lengths_fail_fast") {
  // Layout of small_file(): config "{\"kind\":\"tiny\"}" is 15 bytes at 16..30; the tensor count
  // is at 31; tensor 0's name length at 35, name "dense.w" at 39..45, rank at 46, dims at 50.
  const std::vector<std::uint8_t> good = small_file();
  {
    std::vector<std::uint8_t> bad = good;
    put_u32(bad, 12, 0xFFFFFFFFu);
    CHECK_THROWS_WITH_AS(read_model(bad),
                         doctest::Contains("model file is truncated: expected 4294967295 more bytes at offset 16"),
                         ModelFileError);
  }
  {
    std::vector<std::uint8_t> bad = good;
    put_u32(bad, 31, 0xFFFFFFFFu);
    CHECK_THROWS_WITH_AS(read_model(bad), doctest::Contains("model file is truncated"), ModelFileError);
  }
  {
    std::vector<std::uint8_t> bad = good;
    put_u32(bad, 35, 0x7FFFFFFFu);
    CHECK_THROWS_WITH_AS(read_model(bad), doctest::Contains("(tensor 0 name)"), ModelFileError);
  }
  {
    std::vector<std::uint8_t> bad = good;
    put_u32(bad, 46, 1000);
    CHECK_THROWS_WITH_AS(read_model(bad),
                         "model file is corrupted: tensor 0 'dense.w' has rank 1000 (at most 8 is supported)",
                         ModelFileError);
  }
  {
    // [2^31, 2^31] would be 2^62 floats: refused before any allocation.
    std::vector<std::uint8_t> bad = good;
    put_u32(bad, 46, 2);
    put_u64(bad, 50, std::uint64_t{1} << 31);
    put_u64(bad, 58, std::uint64_t{1} << 31);
    CHECK_THROWS_WITH_AS(read_model(bad), doctest::Contains("tensor 0 'dense.w' declares more values than"),
                         ModelFileError);
    put_u64(bad, 50, std::uint64_t{1} << 40);
    CHECK_THROWS_WITH_AS(read_model(bad), "model file is corrupted: tensor 0 'dense.w' dimension 0 is 1099511627776",
                         ModelFileError);
  }
  {
    std::vector<std::uint8_t> bad = good;
    bad.push_back(0);
    CHECK_THROWS_WITH_AS(read_model(bad), doctest::Contains("1 unexpected bytes after the checksum"), ModelFileError);
  }
}

TEST_CASE("model_file.architecture_mismatch_names_the_tensors") {
  const ModelFile file = read_model(small_file());
  Tensor2 w = xt::zeros<float>({2, 4});
  Tensor2 dw = xt::zeros<float>({2, 4});
  Tensor1 g = xt::ones<float>({4});
  Tensor1 dg = xt::zeros<float>({4});
  ParameterList other;
  add_parameter(other, "dense.", "w", w, dw);
  add_parameter(other, "norm.", "gamma", g, dg);
  CHECK_THROWS_WITH_AS(load_parameters(file, other),
                       "this file holds a model of another architecture: shape mismatch: 'dense.w' is [2, 3] in the "
                       "file but [2, 4] in this model; missing from the file: 'norm.gamma'; not in this model: "
                       "'dense.b'",
                       ModelFileError);
  // Nothing was loaded.
  CHECK(w(0, 0) == 0.f);
  CHECK(g(0) == 1.f);
}

TEST_CASE("model_file.save_rejects_duplicate_names") {
  TinyModel m;
  m.params[1].name = "dense.w";
  CHECK_THROWS_WITH_AS(save_model("{}", m.params),
                       "save_model: two parameters are named 'dense.w'; names must be unique to be loaded back",
                       std::invalid_argument);
}

TEST_CASE("model_file.atomic_write_replaces_and_leaves_no_temp_file") {
  TempFolder folder;
  const std::string path = (folder.path / "model.attn").string();
  const std::vector<std::uint8_t> first = small_file();
  write_file_atomically(path, first);
  CHECK(read_file(path) == first);
  const std::vector<std::uint8_t> second = {1, 2, 3};
  write_file_atomically(path, second);
  CHECK(read_file(path) == second);
  CHECK(folder.entries() == std::vector<std::string>{"model.attn"});
  write_file_atomically(path, {});
  CHECK(read_file(path).empty());
}

TEST_CASE("model_file.failed_write_keeps_the_old_file") {
  TempFolder folder;
  // The target is a non-empty folder: the temporary is written, the rename fails, the folder
  // and its content survive and the temporary is removed.
  const fs::path target = folder.path / "model.attn";
  fs::create_directories(target / "inside");
  CHECK_THROWS_WITH_AS(write_file_atomically(target.string(), {1, 2, 3}),
                       doctest::Contains("renaming the temporary file over it failed"), ModelFileError);
  CHECK(fs::is_directory(target / "inside"));
  CHECK(folder.entries() == std::vector<std::string>{"model.attn"});
  // A folder that does not exist: nothing can be created.
  CHECK_THROWS_WITH_AS(write_file_atomically((folder.path / "missing" / "m.attn").string(), {1}),
                       doctest::Contains("cannot create a temporary file"), ModelFileError);
}

TEST_CASE("model_file.read_file_errors") {
  TempFolder folder;
  const std::string missing = (folder.path / "nope.attn").string();
  CHECK_THROWS_WITH_AS(read_file(missing), ("cannot read '" + missing + "': no such file").c_str(), ModelFileError);
  CHECK_THROWS_WITH_AS(read_file(folder.path.string()), doctest::Contains("it is not a regular file"), ModelFileError);
  const std::string big = (folder.path / "big.attn").string();
  write_file_atomically(big, std::vector<std::uint8_t>(100, 7));
  CHECK_THROWS_WITH_AS(read_file(big, 10), doctest::Contains("it is too large (100 bytes; the limit is 10)"),
                       ModelFileError);
  CHECK(read_file(big, 100).size() == 100);
}
