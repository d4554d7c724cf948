#include <doctest/doctest.h>

#include <string>

#include "attn/io/gzip.hpp"
#include "attn/random.hpp"
#include "support/archive_writer.hpp"
#include "support/fixture_files.hpp"

using attn::DataError;
using attn::GzipReader;
using attn::MemorySource;
using namespace test_archive;

namespace {

Bytes gunzip(const Bytes& gz, std::uint64_t limit = 1 << 26, std::size_t chunk = 4096) {
  MemorySource source(gz.data(), gz.size(), "test.gz");
  GzipReader reader(source, limit);
  Bytes out;
  std::vector<std::uint8_t> buffer(chunk);
  for (std::size_t n; (n = reader.read(buffer.data(), buffer.size())) != 0;)
    out.insert(out.end(), buffer.begin(), buffer.begin() + n);
  return out;
}

std::string error_of(const Bytes& gz, std::uint64_t limit = 1 << 26) {
  try {
    gunzip(gz, limit);
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("gzip.crc32_known_values") {
  // The check value of CRC-32/ISO-HDLC over "123456789" is 0xCBF43926.
  const Bytes digits = bytes_of("123456789");
  CHECK(attn::crc32_update(0, digits.data(), digits.size()) == 0xCBF43926u);
  // Incremental updates agree with one pass (exercises the 4-byte and tail loops).
  const std::uint32_t first = attn::crc32_update(0, digits.data(), 5);
  CHECK(attn::crc32_update(first, digits.data() + 5, 4) == 0xCBF43926u);
  CHECK(attn::crc32_update(0, nullptr, 0) == 0u);
}

TEST_CASE("gzip.reads_files_made_by_gzip_9") {
  for (const char* name : {"hello.txt", "reviews_text.txt", "empty.txt"}) {
    INFO(name);
    CHECK(gunzip(test_fixtures::read(std::string(name) + ".gz")) == test_fixtures::read(name));
  }
  // Two members concatenated (cat a.gz b.gz) read as one stream, also one byte at a time.
  CHECK(gunzip(test_fixtures::read("two_members.gz")) == test_fixtures::read("two_members.txt"));
  CHECK(gunzip(test_fixtures::read("two_members.gz"), 1 << 26, 1) == test_fixtures::read("two_members.txt"));
}

TEST_CASE("gzip.header_fields_and_header_crc") {
  const Bytes plain = bytes_of("header flags test");
  const Bytes deflated = deflate_fixed(plain);
  // FEXTRA (XLEN 4) + FNAME + FCOMMENT + FHCRC.
  Bytes fields = {4, 0, 'a', 'b', 2, 0};
  for (char c : std::string("name.txt")) fields.push_back(static_cast<std::uint8_t>(c));
  fields.push_back(0);
  for (char c : std::string("a comment")) fields.push_back(static_cast<std::uint8_t>(c));
  fields.push_back(0);
  Bytes header = {0x1f, 0x8b, 8, 4 | 8 | 16 | 2, 0, 0, 0, 0, 0, 3};
  header.insert(header.end(), fields.begin(), fields.end());
  const std::uint32_t crc = attn::crc32_update(0, header.data(), header.size());
  fields.push_back(static_cast<std::uint8_t>(crc & 0xff));
  fields.push_back(static_cast<std::uint8_t>((crc >> 8) & 0xff));
  Bytes gz = gzip_member(deflated, plain, 4 | 8 | 16 | 2, fields);
  CHECK(gunzip(gz) == plain);

  gz[10 + fields.size() - 1] ^= 0x40;  // corrupt the stored header CRC
  CHECK(error_of(gz).find("gzip header CRC mismatch") != std::string::npos);
}

TEST_CASE("gzip.rejects_bad_headers_and_trailers") {
  const Bytes plain = bytes_of("some text, some text, some text");
  const Bytes good = gzip_fixed(plain);
  REQUIRE(gunzip(good) == plain);

  Bytes bad_magic = good;
  bad_magic[1] = 0x8c;
  CHECK(error_of(bad_magic) == "test.gz: not a gzip file (it does not start with the bytes 1f 8b)");
  Bytes bad_method = good;
  bad_method[2] = 7;
  CHECK(error_of(bad_method) == "test.gz: unsupported gzip compression method 7 (only 8, deflate)");
  Bytes reserved = good;
  reserved[3] = 0x20;
  CHECK(error_of(reserved).find("reserved flag bits") != std::string::npos);

  Bytes bad_crc = good;
  bad_crc[bad_crc.size() - 8] ^= 1;
  CHECK(error_of(bad_crc).find("gzip CRC-32 mismatch in member 1") != std::string::npos);
  Bytes bad_size = good;
  bad_size[bad_size.size() - 4] ^= 1;
  CHECK(error_of(bad_size) == "test.gz: gzip ISIZE mismatch in member 1 (stored " + std::to_string(plain.size() ^ 1) +
                                  ", decompressed " + std::to_string(plain.size()) + " mod 2^32)");

  CHECK(error_of(Bytes()) == "test.gz: the file is empty (expected gzip data)");
  Bytes garbage = good;
  garbage.push_back('x');
  garbage.push_back('y');
  CHECK(error_of(garbage).find("unexpected data after gzip member 1") != std::string::npos);
  Bytes zero_padded = good;
  zero_padded.resize(good.size() + 100, 0);
  CHECK(gunzip(zero_padded) == plain);
}

TEST_CASE("gzip.truncated_at_every_offset_throws") {
  for (const char* name : {"hello.txt.gz", "reviews_text.txt.gz"}) {
    const Bytes gz = test_fixtures::read(name);
    for (std::size_t cut = 0; cut < gz.size(); ++cut) {
      INFO(name << " cut at " << cut);
      const Bytes part(gz.begin(), gz.begin() + static_cast<std::ptrdiff_t>(cut));
      CHECK_THROWS_AS(gunzip(part), DataError);
    }
  }
  const Bytes hello = test_fixtures::read("hello.txt.gz");
  CHECK(error_of(Bytes(hello.begin(), hello.end() - 3)) ==
        "test.gz: truncated gzip stream (input ends after 30 bytes)");
}

TEST_CASE("gzip.flipped_bytes_are_caught") {
  // Any flip either throws DataError or lands in a field that does not affect the data (MTIME,
  // XFL, OS, the file name), in which case the output must still be exact.
  const Bytes gz = test_fixtures::read("reviews_text.txt.gz");
  const Bytes plain = test_fixtures::read("reviews_text.txt");
  attn::Rng rng(5);
  int caught = 0, harmless = 0;
  for (std::size_t i = 0; i < gz.size(); i += 3) {
    Bytes bad = gz;
    bad[i] ^= static_cast<std::uint8_t>(1u << rng.below(8));
    bool exact = false;
    try {
      exact = gunzip(bad) == plain;
      ++harmless;
    } catch (const DataError&) {
      ++caught;
      exact = true;
    }
    CHECK(exact);
  }
  CHECK(harmless < 12);
  CHECK(caught > 1980);
}

TEST_CASE("gzip.stops_a_zip_bomb_at_the_limit") {
  // 10 MB of zeros compresses to ~100 KB with our fixed-Huffman writer (20 bits per 258-byte
  // match at distance 258).
  const Bytes zeros(10u << 20, 0);
  const Bytes bomb = gzip_fixed(zeros);
  CHECK(bomb.size() < 110000);
  MemorySource source(bomb.data(), bomb.size(), "bomb.gz");
  attn::CountingSource counted(source);
  GzipReader reader(counted, 1u << 20);
  std::uint8_t buffer[65536];
  std::uint64_t delivered = 0;
  std::string message;
  try {
    for (std::size_t n; (n = reader.read(buffer, sizeof buffer)) != 0;) delivered += n;
  } catch (const DataError& e) {
    message = e.what();
  }
  CHECK(message == "bomb.gz: decompressed size exceeds the limit of 1048576 bytes (zip bomb?)");
  CHECK(delivered <= (1u << 20));
  // It stopped early: about 1/10 of the compressed input (plus one 16 KiB input buffer) was read.
  CHECK(counted.bytes_read() < bomb.size() / 10 + 16384 + 1024);
  // Exactly at the limit is allowed.
  const Bytes small(5000, 'q');
  CHECK(gunzip(gzip_fixed(small), 5000).size() == 5000);
  CHECK(error_of(gzip_fixed(small), 4999) == "test.gz: decompressed size exceeds the limit of 4999 bytes (zip bomb?)");
}
