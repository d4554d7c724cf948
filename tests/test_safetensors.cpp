// io/safetensors.hpp: the byte layout PyTorch users' loaders expect, worked out by hand.
#include <doctest/doctest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/io/safetensors.hpp"

namespace {

std::uint64_t header_length(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[static_cast<std::size_t>(i)];
  return n;
}

float float_at(const std::vector<std::uint8_t>& bytes, std::size_t offset) {
  // Little-endian on the wire; assemble the bits explicitly so the test holds on any host.
  std::uint32_t bits = 0;
  for (int i = 3; i >= 0; --i) bits = (bits << 8) | bytes[offset + static_cast<std::size_t>(i)];
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

}  // namespace

TEST_CASE("safetensors.header_offsets_padding_and_data") {
  const std::vector<attn::NamedTensor> tensors = {{"a.weight", {2, 3}, {1, 2, 3, 4, 5, 6}}, {"b", {1}, {-0.5f}}};
  const std::vector<std::uint8_t> bytes = attn::write_safetensors(tensors, {{"format", "x\"y"}});
  const std::uint64_t n = header_length(bytes);
  CHECK((8 + n) % 8 == 0);  // the data starts 8-aligned
  const std::string header(bytes.begin() + 8, bytes.begin() + 8 + static_cast<std::ptrdiff_t>(n));
  CHECK(header.rfind("{\"__metadata__\":{\"format\":\"x\\\"y\"},"
                     "\"a.weight\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]},"
                     "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[24,28]}}",
                     0) == 0);
  CHECK(header.find_first_not_of(' ', header.find_last_of('}') + 1) == std::string::npos);
  REQUIRE(bytes.size() == 8 + n + 28);
  CHECK(float_at(bytes, 8 + n) == 1.f);
  CHECK(float_at(bytes, 8 + n + 20) == 6.f);
  CHECK(float_at(bytes, 8 + n + 24) == -0.5f);
}

TEST_CASE("safetensors.rejects_bad_names_and_shapes") {
  CHECK_THROWS_AS(attn::write_safetensors({{"", {1}, {0}}}), std::invalid_argument);
  CHECK_THROWS_AS(attn::write_safetensors({{"__metadata__", {1}, {0}}}), std::invalid_argument);
  CHECK_THROWS_AS(attn::write_safetensors({{"a", {1}, {0}}, {"a", {1}, {0}}}), std::invalid_argument);
  CHECK_THROWS_WITH_AS(attn::write_safetensors({{"a", {2, 2}, {0, 1, 2}}}),
                       "write_safetensors: tensor 'a' has 3 values but its shape [2,2] holds 4", std::invalid_argument);
}
