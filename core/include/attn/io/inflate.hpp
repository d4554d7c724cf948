// RFC 1951 (DEFLATE) decompression, streaming, written for hostile input.
//
// No tensors here (the shape legend B, T, D, H, V, U, A does not apply). Our wasm build has no
// zlib, so this is our own inflater. Every malformed stream throws DataError saying what was
// wrong; no input can make it read outside its buffers or loop without consuming input.
// Memory: one linear 96 KiB buffer (32 KiB of history + 64 KiB of output; linear rather than a
// 32 KiB ring so match copies need no index masking), a 16 KiB input buffer and ~57 KiB of
// Huffman tables, ~170 KiB in all, whatever the stream length.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/io/byte_source.hpp"

namespace attn {

// LSB-first bit input over a ByteSource (RFC 1951 §3.1.1 bit order), shared by the inflater and
// the gzip member reader, which reads byte-aligned headers and trailers around the deflate data.
class BitReader {
 public:
  explicit BitReader(ByteSource& source);

  // Refills the bit buffer to >= 56 bits unless the source has ended.
  void refill() {
    if (in_end_ - in_pos_ >= 8) {
      std::uint64_t word = 0;
      for (int i = 0; i < 8; ++i) word |= std::uint64_t(in_pos_[i]) << (8 * i);
      bits_ |= word << count_;
      in_pos_ += (63 - count_) >> 3;
      count_ |= 56;
    } else {
      refill_slow();
    }
  }
  // Low `count` bits of the buffer, zero-padded past the end of the stream.
  std::uint64_t peek() const { return bits_; }
  unsigned available() const { return count_; }
  // Drops n bits; throws "truncated" DataError if the stream has fewer left.
  void consume(unsigned n) {
    if (n > count_) throw_truncated();
    bits_ >>= n;
    count_ -= n;
  }
  // Reads n <= 32 bits.
  std::uint32_t bits(unsigned n) {
    if (count_ < n) refill();
    const auto value = static_cast<std::uint32_t>(bits_ & ((std::uint64_t(1) << n) - 1));
    consume(n);
    return value;
  }
  // Discards bits up to the next byte boundary.
  void align_to_byte() { consume(count_ & 7u); }
  // Byte-aligned reads (after align_to_byte). next_byte returns -1 at the end of the stream.
  int next_byte();
  std::uint8_t byte();  // throws truncated at the end
  // Copies up to max aligned bytes; returns 0 only at the end of the stream.
  std::size_t read_bytes(std::uint8_t* out, std::size_t max);
  // Bytes consumed so far (for error offsets).
  std::uint64_t byte_offset() const;

  const std::string& source_name() const { return name_; }
  [[noreturn]] void throw_truncated() const;
  // What a "truncated" error says, e.g. "truncated gzip stream" (set by the outer format).
  void set_truncated_message(std::string message) { truncated_message_ = std::move(message); }

 private:
  void refill_slow();
  bool fill_input();

  ByteSource& source_;
  std::string name_;
  std::string truncated_message_ = "truncated deflate stream";
  std::vector<std::uint8_t> input_;
  const std::uint8_t* in_pos_ = nullptr;
  const std::uint8_t* in_end_ = nullptr;
  std::uint64_t consumed_before_buffer_ = 0;  // bytes of the source before input_[0]
  bool source_ended_ = false;
  std::uint64_t bits_ = 0;
  unsigned count_ = 0;
};

// A canonical Huffman decoding table: a primary table indexed by the next `primary_bits` input
// bits, with sub-tables for longer codes. Entries pack (symbol << 16 | flags | length).
class HuffmanTable {
 public:
  static constexpr std::uint32_t kSubTable = 0x100;  // entry points to a sub-table
  static constexpr std::uint32_t kInvalid = 0x200;   // no code maps here

  HuffmanTable(unsigned primary_bits, std::size_t max_symbols);
  // Builds from code lengths (0 = unused, 1..15). Returns "" on success or what is wrong with the
  // set (over-subscribed, incomplete). An incomplete set is accepted only when it is a single
  // code of length 1 (RFC 1951 §3.2.7 allows one distance code), as zlib does.
  const char* build(const std::uint8_t* lengths, std::size_t count);

  // Decodes one symbol from the bit reader (which must be refilled). Throws on an invalid code.
  std::uint32_t decode(BitReader& in, const char* what) const {
    std::uint32_t entry = entries_[in.peek() & primary_mask_];
    if (entry & kSubTable) {
      const unsigned sub_bits = entry & 0xffu;
      entry = entries_[(entry >> 16) + ((in.peek() >> primary_bits_) & ((1u << sub_bits) - 1))];
    }
    if (entry & kInvalid) throw_invalid(in, what);
    in.consume(entry & 0xffu);
    return entry >> 16;
  }

 private:
  [[noreturn]] static void throw_invalid(const BitReader& in, const char* what);
  unsigned primary_bits_;
  std::uint32_t primary_mask_;
  std::vector<std::uint32_t> entries_;
};

// Streaming inflater: read() fills the caller's buffer, decoding only as much as fits (the
// pending output lives in the window), so output size never drives memory.
class Inflater {
 public:
  explicit Inflater(BitReader& input);

  // Up to max decompressed bytes; 0 once the final block has been fully delivered.
  std::size_t read(std::uint8_t* out, std::size_t max);
  bool finished() const { return state_ == State::done && read_pos_ == write_pos_; }
  // Starts a fresh stream on the same input (next gzip member): empty history.
  void reset();

 private:
  enum class State { block_header, stored, huffman, done };
  static constexpr std::size_t kHistory = 32768;
  static constexpr std::size_t kOutput = 65536;
  static constexpr std::size_t kMaxMatch = 258;
  static constexpr std::size_t kSlack = 8;  // 8-byte match copies may overrun by 7

  void read_block_header();
  void read_dynamic_tables();
  void use_fixed_tables();
  void decode_stored();
  void decode_huffman();
  void slide_window();
  [[noreturn]] void fail(const std::string& problem) const;

  BitReader& in_;
  State state_ = State::block_header;
  bool final_block_ = false;
  std::size_t stored_left_ = 0;
  // window_[0, write_pos_) holds history then pending output; read_pos_ marks what the caller
  // has not taken yet. Back-references reach at most write_pos_ bytes back.
  std::vector<std::uint8_t> window_;
  std::size_t read_pos_ = 0;
  std::size_t write_pos_ = 0;
  HuffmanTable literal_lengths_;
  HuffmanTable distances_;
  HuffmanTable code_lengths_;
  std::array<std::uint8_t, 320> lengths_{};
};

// Convenience: inflates a whole raw deflate stream held in memory (tests, small payloads).
// Throws DataError when the output would exceed max_output bytes.
std::vector<std::uint8_t> inflate_bytes(const std::uint8_t* data, std::size_t size, std::size_t max_output,
                                        const std::string& name = "deflate");

}  // namespace attn
