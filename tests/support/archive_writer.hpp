// Tiny writers for test fixtures: raw deflate (stored and fixed-Huffman blocks), gzip members
// and tar archives, so the io tests need no external tools. Deliberately simple (greedy LZ77
// with one hash slot); correctness of the reader, not compression ratio, is what they serve.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "attn/io/gzip.hpp"

namespace test_archive {

using Bytes = std::vector<std::uint8_t>;

inline Bytes bytes_of(const std::string& s) { return Bytes(s.begin(), s.end()); }
inline std::string string_of(const Bytes& b) { return std::string(b.begin(), b.end()); }

// LSB-first bit packing (RFC 1951 §3.1.1).
class BitWriter {
 public:
  void put(std::uint32_t value, unsigned count) {
    for (unsigned i = 0; i < count; ++i) put_bit((value >> i) & 1u);
  }
  // Huffman codes go most-significant bit first.
  void put_code(std::uint32_t code, unsigned length) {
    for (unsigned i = length; i-- > 0;) put_bit((code >> i) & 1u);
  }
  void align() {
    while (used_ != 0) put_bit(0);
  }
  void put_byte(std::uint8_t b) { put(b, 8); }
  Bytes finish() {
    align();
    return out_;
  }

 private:
  void put_bit(std::uint32_t bit) {
    if (used_ == 0) out_.push_back(0);
    out_.back() |= static_cast<std::uint8_t>(bit << used_);
    used_ = (used_ + 1) & 7u;
  }
  Bytes out_;
  unsigned used_ = 0;
};

// Stored blocks of at most block_size bytes (an empty input gives one empty final block).
inline Bytes deflate_stored(const Bytes& data, std::size_t block_size = 65535) {
  BitWriter w;
  std::size_t pos = 0;
  do {
    const std::size_t n = std::min(block_size, data.size() - pos);
    const bool final = pos + n == data.size();
    w.put(final ? 1 : 0, 1);
    w.put(0, 2);
    w.align();
    w.put(static_cast<std::uint32_t>(n), 16);
    w.put(static_cast<std::uint32_t>(~n & 0xffffu), 16);
    for (std::size_t i = 0; i < n; ++i) w.put_byte(data[pos + i]);
    pos += n;
  } while (pos < data.size());
  return w.finish();
}

// Fixed-Huffman literal/length symbol (RFC 1951 §3.2.6).
inline void put_fixed_literal_length(BitWriter& w, unsigned symbol) {
  if (symbol < 144)
    w.put_code(0x30 + symbol, 8);
  else if (symbol < 256)
    w.put_code(0x190 + symbol - 144, 9);
  else if (symbol < 280)
    w.put_code(symbol - 256, 7);
  else
    w.put_code(0xc0 + symbol - 280, 8);
}

inline void put_fixed_match(BitWriter& w, unsigned length, unsigned distance) {
  static const unsigned length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                           31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
  static const unsigned length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                            2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
  static const unsigned dist_base[30] = {1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
                                         33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
                                         1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
  static const unsigned dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                          6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
  unsigned li = 28;
  while (length_base[li] > length) --li;
  if (length == 258)
    li = 28;
  else if (li == 28)
    li = 27;
  put_fixed_literal_length(w, 257 + li);
  w.put(length - length_base[li], length_extra[li]);
  unsigned di = 29;
  while (dist_base[di] > distance) --di;
  w.put_code(di, 5);
  w.put(distance - dist_base[di], dist_extra[di]);
}

// One final fixed-Huffman block, greedy matching through a 3-byte hash with one slot.
inline Bytes deflate_fixed(const Bytes& data, bool final_block = true, BitWriter* into = nullptr) {
  BitWriter local;
  BitWriter& w = into ? *into : local;
  w.put(final_block ? 1 : 0, 1);
  w.put(1, 2);
  std::vector<std::int64_t> last(1 << 15, -1);
  std::size_t pos = 0;
  while (pos < data.size()) {
    unsigned best = 0, best_distance = 0;
    if (pos + 3 <= data.size()) {
      const unsigned h = ((data[pos] << 10) ^ (data[pos + 1] << 5) ^ data[pos + 2]) & 0x7fffu;
      const std::int64_t candidate = last[h];
      last[h] = static_cast<std::int64_t>(pos);
      if (candidate >= 0 && pos - candidate <= 32768) {
        unsigned n = 0;
        while (n < 258 && pos + n < data.size() && data[candidate + n] == data[pos + n]) ++n;
        if (n >= 3) best = n, best_distance = static_cast<unsigned>(pos - candidate);
      }
    }
    if (best >= 3) {
      put_fixed_match(w, best, best_distance);
      pos += best;
    } else {
      put_fixed_literal_length(w, data[pos]);
      ++pos;
    }
  }
  put_fixed_literal_length(w, 256);
  return into ? Bytes() : w.finish();
}

inline void put_le32(Bytes& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// A gzip member around already-deflated data (flags: FNAME etc. supplied by the caller).
inline Bytes gzip_member(const Bytes& deflated, const Bytes& plain, std::uint8_t flags = 0,
                         const Bytes& extra_fields = {}) {
  Bytes out = {0x1f, 0x8b, 8, flags, 0, 0, 0, 0, 0, 3};
  out.reserve(out.size() + extra_fields.size() + deflated.size() + 8);
  // Byte by byte: vector::insert of these ranges trips a GCC 12 -Wstringop-overread false positive.
  for (std::uint8_t b : extra_fields) out.push_back(b);
  for (std::uint8_t b : deflated) out.push_back(b);
  put_le32(out, attn::crc32_update(0, plain.data(), plain.size()));
  put_le32(out, static_cast<std::uint32_t>(plain.size()));
  return out;
}

inline Bytes gzip_fixed(const Bytes& plain) { return gzip_member(deflate_fixed(plain), plain); }

// ustar archive builder.
class TarBuilder {
 public:
  void add(const std::string& name, const std::string& content, char type = '0', std::uint64_t stated_size = UINT64_MAX,
           bool base256_size = false) {
    std::uint8_t header[512] = {};
    std::memcpy(header, name.data(), std::min<std::size_t>(name.size(), 100));
    std::memcpy(header + 100, "0000644", 7);
    std::memcpy(header + 108, "0000000", 7);
    std::memcpy(header + 116, "0000000", 7);
    const std::uint64_t size = stated_size == UINT64_MAX ? content.size() : stated_size;
    if (base256_size) {
      header[124] = 0x80;
      for (int i = 0; i < 8; ++i) header[135 - i] = static_cast<std::uint8_t>(size >> (8 * i));
    } else {
      std::snprintf(reinterpret_cast<char*>(header + 124), 12, "%011llo", static_cast<unsigned long long>(size));
    }
    std::memcpy(header + 136, "00000000000", 11);
    header[156] = static_cast<std::uint8_t>(type);
    std::memcpy(header + 257,
                "ustar\0"
                "00",
                8);
    std::memset(header + 148, ' ', 8);
    unsigned sum = 0;
    for (auto b : header) sum += b;
    std::snprintf(reinterpret_cast<char*>(header + 148), 8, "%06o", sum);
    out.insert(out.end(), header, header + 512);
    out.insert(out.end(), content.begin(), content.end());
    out.resize(out.size() + (512 - content.size() % 512) % 512, 0);
  }
  void add_gnu_long_name(const std::string& long_name, const std::string& content) {
    add("././@LongLink", long_name + std::string(1, '\0'), 'L');
    add(long_name.substr(0, 99), content);
  }
  void add_pax_path(const std::string& path, const std::string& content) {
    std::string record = " path=" + path + "\n";
    std::size_t length = record.size() + 1;
    while (std::to_string(length).size() + record.size() != length) ++length;
    add("PaxHeaders/x", std::to_string(length) + record, 'x');
    add("short_name.txt", content);
  }
  Bytes finish() {
    Bytes result = out;
    result.resize(result.size() + 1024, 0);
    return result;
  }
  Bytes out;
};

}  // namespace test_archive
