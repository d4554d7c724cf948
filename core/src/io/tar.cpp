#include "attn/io/tar.hpp"

#include <algorithm>
#include <cstring>

namespace attn {

namespace {
// Header field offsets and widths (POSIX ustar; GNU shares them up to the magic).
constexpr std::size_t kName = 0, kNameLen = 100;
constexpr std::size_t kSize = 124, kSizeLen = 12;
constexpr std::size_t kChecksum = 148, kChecksumLen = 8;
constexpr std::size_t kType = 156;
constexpr std::size_t kMagic = 257;
constexpr std::size_t kPrefix = 345, kPrefixLen = 155;

std::string field_string(const std::uint8_t* block, std::size_t offset, std::size_t length) {
  const char* begin = reinterpret_cast<const char*>(block + offset);
  return std::string(begin, strnlen(begin, length));
}

// Octal number with optional leading spaces and trailing NUL/space terminators, or GNU base-256
// (high bit of the first byte set; big-endian, negative values rejected). false if malformed.
bool parse_number(const std::uint8_t* field, std::size_t length, std::uint64_t& value) {
  value = 0;
  if (field[0] & 0x80u) {
    if (field[0] == 0xffu) return false;  // negative
    std::uint64_t v = field[0] & 0x7fu;
    for (std::size_t i = 1; i < length; ++i) {
      if (v >> 55) return false;  // would overflow 64 bits
      v = (v << 8) | field[i];
    }
    value = v;
    return true;
  }
  std::size_t i = 0;
  while (i < length && field[i] == ' ') ++i;
  bool digits = false;
  for (; i < length && field[i] >= '0' && field[i] <= '7'; ++i) {
    if (value >> 60) return false;
    value = value * 8 + (field[i] - '0');
    digits = true;
  }
  for (; i < length; ++i) {
    if (field[i] != ' ' && field[i] != '\0') return false;
  }
  return digits;
}

bool all_zero(const std::uint8_t* block, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (block[i] != 0) return false;
  }
  return true;
}

// pax records are "<length> <key>=<value>\n" where length counts the whole record.
std::string pax_path(const std::string& records, const std::string& archive) {
  std::string path;
  std::size_t pos = 0;
  while (pos < records.size()) {
    std::size_t length = 0, i = pos;
    while (i < records.size() && records[i] >= '0' && records[i] <= '9' && length < records.size()) {
      length = length * 10 + static_cast<std::size_t>(records[i] - '0');
      ++i;
    }
    if (i == pos || i >= records.size() || records[i] != ' ' || length <= i - pos || pos + length > records.size() ||
        records[pos + length - 1] != '\n') {
      if (all_zero(reinterpret_cast<const std::uint8_t*>(records.data() + pos), records.size() - pos)) break;
      throw DataError(archive, 0, "malformed pax extended header record");
    }
    const std::string record = records.substr(i + 1, pos + length - 1 - (i + 1));
    const std::size_t equals = record.find('=');
    if (equals == std::string::npos) throw DataError(archive, 0, "malformed pax extended header record (no '=')");
    if (record.compare(0, equals, "path") == 0 && equals == 4) path = record.substr(equals + 1);
    pos += length;
  }
  return path;
}
}  // namespace

TarReader::TarReader(ByteSource& archive, std::uint64_t max_entry_bytes)
    : in_(archive), name_(archive.name()), max_entry_(max_entry_bytes) {}

void TarReader::fail(const std::string& problem) const { throw DataError(name_, 0, problem); }

bool TarReader::read_block(std::uint8_t* block) {
  const std::size_t n = read_fully(in_, block, kBlock);
  offset_ += n;
  if (n == 0) return false;
  if (n < kBlock) fail("truncated tar archive: it ends inside a header block at byte " + std::to_string(offset_));
  return true;
}

void TarReader::discard(std::uint64_t count) {
  std::uint8_t scratch[4096];
  while (count > 0) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(count, sizeof scratch));
    const std::size_t n = in_.read(scratch, want);
    if (n == 0) fail("truncated tar archive: entry '" + current_ + "' is cut short");
    offset_ += n;
    count -= n;
  }
}

std::size_t TarReader::read(std::uint8_t* out, std::size_t max) {
  const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(max, data_left_));
  if (want == 0) return 0;
  const std::size_t n = read_fully(in_, out, want);
  offset_ += n;
  data_left_ -= n;
  if (n < want) {
    fail("truncated tar archive: entry '" + current_ + "' ends after " + std::to_string(current_size_ - data_left_) +
         " of " + std::to_string(current_size_) + " bytes");
  }
  return n;
}

void TarReader::skip() {
  discard(data_left_);
  data_left_ = 0;
}

std::string TarReader::read_small_entry(std::uint64_t size, const std::string& what) {
  if (size > kMaxLongName)
    fail(what + " of " + std::to_string(size) + " bytes is larger than " + std::to_string(kMaxLongName));
  std::string text(static_cast<std::size_t>(size), '\0');
  if (size > 0) read(reinterpret_cast<std::uint8_t*>(&text[0]), text.size());
  discard(padding_left_);
  padding_left_ = 0;
  return text;
}

bool TarReader::next(TarEntry& entry) {
  if (ended_) return false;
  skip();
  discard(padding_left_);
  padding_left_ = 0;

  std::string long_name;  // from a preceding 'L' or 'x' entry, applies to the next header only
  std::uint8_t block[kBlock];
  for (;;) {
    current_ = long_name.empty() ? "(header at byte " + std::to_string(offset_) + ")" : long_name;
    if (!read_block(block)) fail("truncated tar archive: missing the end-of-archive blocks");
    if (all_zero(block, kBlock)) {
      // End of archive: a second zero block should follow. A lone zero block at the very end is
      // accepted (GNU tar only warns about it).
      std::uint8_t second[kBlock];
      if (read_block(second) && !all_zero(second, kBlock))
        fail("unexpected zero block in the middle of the tar archive");
      ended_ = true;
      return false;
    }

    std::uint64_t stored_checksum = 0;
    if (!parse_number(block + kChecksum, kChecksumLen, stored_checksum)) {
      fail("not a tar archive or corrupt tar header at byte " + std::to_string(offset_ - kBlock) +
           " (bad checksum field)");
    }
    std::uint64_t unsigned_sum = 0;
    std::int64_t signed_sum = 0;  // some old tars summed signed chars
    for (std::size_t i = 0; i < kBlock; ++i) {
      const std::uint8_t b = (i >= kChecksum && i < kChecksum + kChecksumLen) ? ' ' : block[i];
      unsigned_sum += b;
      signed_sum += static_cast<std::int8_t>(b);
    }
    if (stored_checksum != unsigned_sum && static_cast<std::int64_t>(stored_checksum) != signed_sum) {
      fail("tar header checksum mismatch at byte " + std::to_string(offset_ - kBlock) + " (corrupt archive)");
    }

    std::uint64_t size = 0;
    if (!parse_number(block + kSize, kSizeLen, size)) {
      fail("invalid size field in the tar header at byte " + std::to_string(offset_ - kBlock));
    }
    std::string name = field_string(block, kName, kNameLen);
    const bool ustar = std::memcmp(block + kMagic, "ustar\0", 6) == 0;
    if (ustar) {
      const std::string prefix = field_string(block, kPrefix, kPrefixLen);
      if (!prefix.empty()) name = prefix + "/" + name;
    }
    if (!long_name.empty()) name = long_name;
    current_ = name;
    current_size_ = size;
    const char type = static_cast<char>(block[kType]);
    if (size > max_entry_) {
      fail("entry '" + name + "' is " + std::to_string(size) + " bytes, larger than the limit of " +
           std::to_string(max_entry_) + " bytes");
    }
    data_left_ = size;
    padding_left_ = (kBlock - size % kBlock) % kBlock;

    if (type == 'L') {
      long_name = read_small_entry(size, "GNU long name");
      long_name.resize(strnlen(long_name.c_str(), long_name.size()));
      continue;
    }
    if (type == 'x') {
      const std::string path = pax_path(read_small_entry(size, "pax extended header"), name_);
      if (!path.empty()) long_name = path;
      continue;
    }
    if (type == '0' || type == '\0' || type == '7' || type == '5') {
      // '7' (contiguous file) is a regular file for every practical purpose.
      entry.name = name;
      entry.size = type == '5' ? 0 : size;
      entry.type = type == '5' ? TarEntryType::directory : TarEntryType::file;
      if (type == '5') {
        skip();  // folders carry no data; be tolerant of writers that put some there anyway
        discard(padding_left_);
        padding_left_ = 0;
      }
      return true;
    }
    // Links, devices, FIFOs, 'K' long link names, 'g' global pax headers...: skipped.
    skip();
    discard(padding_left_);
    padding_left_ = 0;
    long_name.clear();
  }
}

}  // namespace attn
