#include "attn/io/gzip.hpp"

#include <array>
#include <cstdio>

namespace attn {

namespace {
// Slicing-by-4 tables: four bytes per step, ~4x the byte-at-a-time loop, so the CRC is not what
// bounds decompression speed.
struct CrcTables {
  std::array<std::array<std::uint32_t, 256>, 4> t{};
  CrcTables() {
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[0][i] = c;
    }
    for (std::uint32_t i = 0; i < 256; ++i) {
      for (int s = 1; s < 4; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xffu];
    }
  }
};
const CrcTables& crc_tables() {
  static const CrcTables tables;
  return tables;
}

std::string hex32(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

constexpr std::uint8_t kFlagText = 1, kFlagHeaderCrc = 2, kFlagExtra = 4, kFlagName = 8, kFlagComment = 16;
}  // namespace

std::uint32_t crc32_update(std::uint32_t crc, const std::uint8_t* data, std::size_t size) {
  const auto& t = crc_tables().t;
  crc = ~crc;
  std::size_t i = 0;
  for (; i + 4 <= size; i += 4) {
    crc ^= std::uint32_t(data[i]) | std::uint32_t(data[i + 1]) << 8 | std::uint32_t(data[i + 2]) << 16 |
           std::uint32_t(data[i + 3]) << 24;
    crc = t[3][crc & 0xffu] ^ t[2][(crc >> 8) & 0xffu] ^ t[1][(crc >> 16) & 0xffu] ^ t[0][crc >> 24];
  }
  for (; i < size; ++i) crc = t[0][(crc ^ data[i]) & 0xffu] ^ (crc >> 8);
  return ~crc;
}

GzipReader::GzipReader(ByteSource& compressed, std::uint64_t max_output_bytes)
    : name_(compressed.name()), bits_(compressed), inflater_(bits_), limit_(max_output_bytes) {
  bits_.set_truncated_message("truncated gzip stream");
}

void GzipReader::fail(const std::string& problem) const { throw DataError(name_, 0, problem); }

bool GzipReader::read_member_header() {
  const int first = bits_.next_byte();
  if (first < 0) {
    if (members_ == 0) fail("the file is empty (expected gzip data)");
    return false;
  }
  if (members_ > 0 && first == 0) {
    // Some writers pad the last member with zeros up to a block size; allow only zeros.
    for (int b = bits_.next_byte(); b >= 0; b = bits_.next_byte()) {
      if (b != 0) fail("unexpected data after gzip member " + std::to_string(members_));
    }
    return false;
  }
  if (members_ > 0 && first != 0x1f)
    fail("unexpected data after gzip member " + std::to_string(members_) + " (no gzip header follows)");
  std::uint8_t header[10];
  header[0] = static_cast<std::uint8_t>(first);
  for (int i = 1; i < 10; ++i) header[i] = bits_.byte();
  if (header[0] != 0x1f || header[1] != 0x8b) {
    if (members_ == 0) fail("not a gzip file (it does not start with the bytes 1f 8b)");
    fail("unexpected data after gzip member " + std::to_string(members_) + " (no gzip header follows)");
  }
  if (header[2] != 8) fail("unsupported gzip compression method " + std::to_string(header[2]) + " (only 8, deflate)");
  const std::uint8_t flags = header[3];
  if (flags & 0xe0u) fail("gzip header has reserved flag bits set (corrupt header)");
  std::uint32_t header_crc = crc32_update(0, header, 10);
  auto take = [&]() {
    const std::uint8_t b = bits_.byte();
    header_crc = crc32_update(header_crc, &b, 1);
    return b;
  };
  if (flags & kFlagExtra) {
    const std::uint32_t low = take();
    const std::uint32_t extra_length = low | std::uint32_t(take()) << 8;
    for (std::uint32_t i = 0; i < extra_length; ++i) take();
  }
  // Names and comments are skipped byte by byte, so a hostile multi-gigabyte name costs time
  // but no memory.
  if (flags & kFlagName)
    while (take() != 0) {
    }
  if (flags & kFlagComment)
    while (take() != 0) {
    }
  if (flags & kFlagHeaderCrc) {
    const std::uint32_t expected = header_crc & 0xffffu;
    const std::uint32_t low = bits_.byte();
    const std::uint32_t stored = low | std::uint32_t(bits_.byte()) << 8;
    if (stored != expected)
      fail("gzip header CRC mismatch (stored " + hex32(stored) + ", computed " + hex32(expected) + ")");
  }
  (void)kFlagText;
  ++members_;
  member_crc_ = 0;
  member_size_ = 0;
  inflater_.reset();
  return true;
}

void GzipReader::read_member_trailer() {
  bits_.align_to_byte();
  std::uint8_t trailer[8];
  for (auto& b : trailer) b = bits_.byte();
  const std::uint32_t stored_crc = trailer[0] | trailer[1] << 8 | trailer[2] << 16 | std::uint32_t(trailer[3]) << 24;
  const std::uint32_t stored_size = trailer[4] | trailer[5] << 8 | trailer[6] << 16 | std::uint32_t(trailer[7]) << 24;
  if (stored_crc != member_crc_) {
    fail("gzip CRC-32 mismatch in member " + std::to_string(members_) + " (stored " + hex32(stored_crc) +
         ", computed " + hex32(member_crc_) + "): the data is corrupt");
  }
  if (stored_size != static_cast<std::uint32_t>(member_size_)) {
    fail("gzip ISIZE mismatch in member " + std::to_string(members_) + " (stored " + std::to_string(stored_size) +
         ", decompressed " + std::to_string(member_size_) + " mod 2^32)");
  }
}

std::size_t GzipReader::read(std::uint8_t* out, std::size_t max) {
  std::size_t delivered = 0;
  while (delivered < max && state_ != State::done) {
    if (state_ == State::member_header) {
      state_ = read_member_header() ? State::data : State::done;
      continue;
    }
    const std::size_t n = inflater_.read(out + delivered, max - delivered);
    if (n == 0) {
      read_member_trailer();
      state_ = State::member_header;
      continue;
    }
    if (total_out_ + n > limit_) {
      fail("decompressed size exceeds the limit of " + std::to_string(limit_) + " bytes (zip bomb?)");
    }
    member_crc_ = crc32_update(member_crc_, out + delivered, n);
    member_size_ += n;
    total_out_ += n;
    delivered += n;
  }
  return delivered;
}

}  // namespace attn
