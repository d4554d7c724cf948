#include <doctest/doctest.h>

#include <string>

#include "attn/io/gzip.hpp"
#include "attn/io/tar.hpp"
#include "support/archive_writer.hpp"
#include "support/fixture_files.hpp"

using attn::DataError;
using attn::MemorySource;
using attn::TarEntry;
using attn::TarEntryType;
using attn::TarReader;
using namespace test_archive;

namespace {

struct Listed {
  std::string name;
  std::string content;
  TarEntryType type;
};

std::vector<Listed> list(attn::ByteSource& source, std::uint64_t max_entry = 1 << 20, std::size_t chunk = 100) {
  TarReader tar(source, max_entry);
  std::vector<Listed> out;
  TarEntry entry;
  while (tar.next(entry)) {
    std::string content;
    std::vector<std::uint8_t> buffer(chunk);
    for (std::size_t n; (n = tar.read(buffer.data(), buffer.size())) != 0;)
      content.append(buffer.begin(), buffer.begin() + n);
    CHECK(content.size() == entry.size);
    out.push_back({entry.name, content, entry.type});
  }
  CHECK_FALSE(tar.next(entry));  // stays at the end
  return out;
}

std::vector<Listed> list(const Bytes& tar, std::uint64_t max_entry = 1 << 20) {
  MemorySource source(tar.data(), tar.size(), "test.tar");
  return list(source, max_entry);
}

std::string error_of(const Bytes& tar, std::uint64_t max_entry = 1 << 20) {
  try {
    list(tar, max_entry);
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}

Bytes sample_tar() {
  TarBuilder b;
  b.add("data/", "", '5');
  b.add("data/a.txt", "alpha");
  b.add("data/link", "", '2');  // symlink: skipped
  b.add("data/b.txt", std::string(1300, 'b'));
  b.add("data/empty.txt", "");
  return b.finish();
}

}  // namespace

TEST_CASE("tar.lists_files_and_folders_and_skips_others") {
  const auto entries = list(sample_tar());
  REQUIRE(entries.size() == 4);
  CHECK(entries[0].name == "data/");
  CHECK(entries[0].type == TarEntryType::directory);
  CHECK(entries[1].name == "data/a.txt");
  CHECK(entries[1].content == "alpha");
  CHECK(entries[2].name == "data/b.txt");
  CHECK(entries[2].content == std::string(1300, 'b'));
  CHECK(entries[3].name == "data/empty.txt");
  CHECK(entries[3].content.empty());
}

TEST_CASE("tar.next_skips_unread_data") {
  const Bytes tar = sample_tar();
  MemorySource source(tar.data(), tar.size(), "test.tar");
  TarReader reader(source, 1 << 20);
  TarEntry entry;
  std::vector<std::string> names;
  std::uint8_t two[2];
  while (reader.next(entry)) {
    names.push_back(entry.name);
    if (entry.name == "data/b.txt") {
      CHECK(reader.read(two, 2) == 2);  // read a little, leave the rest
    }
    if (entry.name == "data/a.txt") reader.skip();
  }
  CHECK(names == std::vector<std::string>{"data/", "data/a.txt", "data/b.txt", "data/empty.txt"});
}

TEST_CASE("tar.long_names_gnu_pax_and_ustar_prefix") {
  const std::string long_name = "aclImdb/train/pos/" + std::string(150, 'n') + ".txt";
  TarBuilder b;
  b.add_gnu_long_name(long_name, "gnu");
  b.add_pax_path(long_name + "2", "pax");
  b.add("after.txt", "plain name again");  // the long name applied to one entry only
  const auto entries = list(b.finish());
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].name == long_name);
  CHECK(entries[0].content == "gnu");
  CHECK(entries[1].name == long_name + "2");
  CHECK(entries[1].content == "pax");
  CHECK(entries[2].name == "after.txt");

  // ustar splits long paths into prefix (offset 345) + name.
  TarBuilder p;
  p.add("file.txt", "x");
  Bytes tar = p.finish();
  const std::string prefix = "some/deep/folder";
  std::memcpy(&tar[345], prefix.data(), prefix.size());
  unsigned sum = 0;
  std::memset(&tar[148], ' ', 8);
  for (int i = 0; i < 512; ++i) sum += tar[i];
  std::snprintf(reinterpret_cast<char*>(&tar[148]), 8, "%06o", sum);
  CHECK(list(tar)[0].name == "some/deep/folder/file.txt");
}

TEST_CASE("tar.base256_sizes") {
  TarBuilder b;
  b.add("big_style.txt", "twelve bytes", '0', UINT64_MAX, true);
  const auto entries = list(b.finish());
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].content == "twelve bytes");
}

TEST_CASE("tar.real_gnu_and_pax_archives") {
  // Made with GNU tar --format=gnu / --format=pax and gzip -9 (see tests/fixtures); one path is
  // 143 characters long, so it needs a ././@LongLink or a pax path record.
  const std::string long_name = "aclImdb/train/neg/" + std::string(120, 'x') + "_3.txt";
  for (const char* name : {"mini_aclimdb_gnu.tar.gz", "mini_aclimdb_pax.tar.gz"}) {
    INFO(name);
    const Bytes gz = test_fixtures::read(name);
    MemorySource source(gz.data(), gz.size(), name);
    attn::GzipReader gzip(source, 1 << 20);
    const auto entries = list(gzip);
    std::vector<std::string> files;
    for (const auto& e : entries) {
      if (e.type == TarEntryType::file) files.push_back(e.name);
    }
    CHECK(files == std::vector<std::string>{"aclImdb/imdb.vocab", "aclImdb/test/neg/5_2.txt",
                                            "aclImdb/test/pos/4_10.txt", "aclImdb/train/neg/2_1.txt", long_name,
                                            "aclImdb/train/pos/0_9.txt", "aclImdb/train/pos/1_8.txt",
                                            "aclImdb/train/unsup/3_0.txt"});
    CHECK(entries.size() == files.size() + 8);  // aclImdb/ and 7 sub-folders
  }
}

TEST_CASE("tar.rejects_corrupt_headers_and_oversized_entries") {
  Bytes bad_checksum = sample_tar();
  bad_checksum[0] ^= 0x01;
  CHECK(error_of(bad_checksum) == "test.tar: tar header checksum mismatch at byte 0 (corrupt archive)");

  Bytes bad_size = sample_tar();
  bad_size[512 + 124] = '9';  // a.txt's size field (octal) now holds a 9; checksum fixed up
  unsigned sum = 0;
  std::memset(&bad_size[512 + 148], ' ', 8);
  for (int i = 0; i < 512; ++i) sum += bad_size[512 + i];
  std::snprintf(reinterpret_cast<char*>(&bad_size[512 + 148]), 8, "%06o", sum);
  CHECK(error_of(bad_size) == "test.tar: invalid size field in the tar header at byte 512");

  CHECK(error_of(sample_tar(), 1000) ==
        "test.tar: entry 'data/b.txt' is 1300 bytes, larger than the limit of 1000 bytes");

  TarBuilder lies;  // claims 1 TB, as a hostile header might
  lies.add("huge.bin", "", '0', std::uint64_t(1) << 40, true);
  CHECK(error_of(lies.finish()).find("is 1099511627776 bytes, larger than the limit") != std::string::npos);

  const Bytes text = bytes_of(std::string(2000, 'x'));
  CHECK(error_of(text).find("bad checksum field") != std::string::npos);
}

TEST_CASE("tar.end_blocks_and_truncation") {
  const Bytes tar = sample_tar();
  // Missing end blocks entirely.
  const Bytes no_end(tar.begin(), tar.end() - 1024);
  CHECK(error_of(no_end) == "test.tar: truncated tar archive: missing the end-of-archive blocks");
  // A lone zero block at the end is accepted (GNU tar only warns).
  const Bytes one_zero(tar.begin(), tar.end() - 512);
  CHECK(list(one_zero).size() == 4);
  // Every cut inside the archive (before the first end block) fails cleanly.
  for (std::size_t cut = 0; cut < tar.size() - 1024; ++cut) {
    INFO("cut at " << cut);
    CHECK_THROWS_AS(list(Bytes(tar.begin(), tar.begin() + static_cast<std::ptrdiff_t>(cut))), DataError);
  }
  CHECK(error_of(Bytes(tar.begin(), tar.begin() + 512 + 512 + 3)) ==
        "test.tar: truncated tar archive: entry 'data/a.txt' ends after 3 of 5 bytes");
}
