#include "attn/io/inflate.hpp"

#include <algorithm>
#include <cstring>

namespace attn {

// ---------------------------------------------------------------- BitReader

BitReader::BitReader(ByteSource& source) : source_(source), name_(source.name()), input_(16384) {
  in_pos_ = in_end_ = input_.data();
}

bool BitReader::fill_input() {
  if (source_ended_) return false;
  consumed_before_buffer_ += static_cast<std::uint64_t>(in_end_ - input_.data());
  const std::size_t n = source_.read(input_.data(), input_.size());
  in_pos_ = input_.data();
  in_end_ = in_pos_ + n;
  if (n == 0) source_ended_ = true;
  return n != 0;
}

void BitReader::refill_slow() {
  // Keeps count_ <= 63 so the fast path's `word << count_` stays defined.
  while (count_ <= 55) {
    if (in_pos_ == in_end_ && !fill_input()) return;
    bits_ |= std::uint64_t(*in_pos_++) << count_;
    count_ += 8;
  }
}

int BitReader::next_byte() {
  if (count_ >= 8) {
    const int value = static_cast<int>(bits_ & 0xffu);
    consume(8);
    return value;
  }
  // Byte-aligned reads bypass bits_: clear bits the fast refill loaded ahead, or the next refill
  // would OR them onto unrelated bytes.
  bits_ = 0;
  count_ = 0;
  if (in_pos_ == in_end_ && !fill_input()) return -1;
  return *in_pos_++;
}

std::uint8_t BitReader::byte() {
  const int value = next_byte();
  if (value < 0) throw_truncated();
  return static_cast<std::uint8_t>(value);
}

std::size_t BitReader::read_bytes(std::uint8_t* out, std::size_t max) {
  std::size_t n = 0;
  while (n < max && count_ >= 8) {
    out[n++] = static_cast<std::uint8_t>(bits_ & 0xffu);
    consume(8);
  }
  if (n == max) return n;
  bits_ = 0;
  count_ = 0;
  if (in_pos_ == in_end_ && !fill_input()) return n;
  const std::size_t take = std::min(max - n, static_cast<std::size_t>(in_end_ - in_pos_));
  std::memcpy(out + n, in_pos_, take);
  in_pos_ += take;
  return n + take;
}

std::uint64_t BitReader::byte_offset() const {
  return consumed_before_buffer_ + static_cast<std::uint64_t>(in_pos_ - input_.data()) - count_ / 8;
}

void BitReader::throw_truncated() const {
  throw DataError(name_, 0, truncated_message_ + " (input ends after " + std::to_string(byte_offset()) + " bytes)");
}

// ---------------------------------------------------------------- HuffmanTable

namespace {
constexpr unsigned kMaxCodeBits = 15;

std::uint32_t reverse_bits(std::uint32_t code, unsigned length) {
  std::uint32_t reversed = 0;
  for (unsigned i = 0; i < length; ++i) {
    reversed = (reversed << 1) | (code & 1u);
    code >>= 1;
  }
  return reversed;
}
}  // namespace

HuffmanTable::HuffmanTable(unsigned primary_bits, std::size_t max_symbols)
    : primary_bits_(primary_bits), primary_mask_((1u << primary_bits) - 1) {
  // Worst case: every symbol owns a sub-table reaching 15 bits. Reserving it once means build()
  // never allocates.
  entries_.reserve((std::size_t(1) << primary_bits) + max_symbols * (std::size_t(1) << (kMaxCodeBits - primary_bits)));
}

const char* HuffmanTable::build(const std::uint8_t* lengths, std::size_t count) {
  unsigned per_length[kMaxCodeBits + 1] = {};
  for (std::size_t s = 0; s < count; ++s) {
    if (lengths[s] > kMaxCodeBits) return "code length above 15";
    per_length[lengths[s]]++;
  }
  per_length[0] = 0;
  // Kraft sum, in units of 2^-len: `left` goes negative if more codes than the tree holds.
  int left = 1;
  unsigned used = 0;
  for (unsigned len = 1; len <= kMaxCodeBits; ++len) {
    left = (left << 1) - static_cast<int>(per_length[len]);
    if (left < 0) return "over-subscribed code lengths";
    used += per_length[len];
  }
  if (left > 0 && used != 0 && !(used == 1 && per_length[1] == 1)) return "incomplete code lengths";

  std::uint32_t next_code[kMaxCodeBits + 2] = {};
  std::uint32_t code = 0;
  for (unsigned len = 1; len <= kMaxCodeBits; ++len) {
    code = (code + per_length[len - 1]) << 1;
    next_code[len] = code;
  }

  const std::size_t primary_size = std::size_t(1) << primary_bits_;
  entries_.assign(primary_size, kInvalid);
  std::uint32_t reversed[320];
  std::uint8_t longest_under_prefix[1024] = {};
  for (std::size_t s = 0; s < count; ++s) {
    const unsigned len = lengths[s];
    if (len == 0) continue;
    reversed[s] = reverse_bits(next_code[len]++, len);
    if (len > primary_bits_) {
      std::uint8_t& longest = longest_under_prefix[reversed[s] & primary_mask_];
      longest = std::max<std::uint8_t>(longest, static_cast<std::uint8_t>(len));
    }
  }
  std::size_t end = primary_size;
  for (std::size_t prefix = 0; prefix < primary_size; ++prefix) {
    if (longest_under_prefix[prefix] == 0) continue;
    const unsigned sub_bits = longest_under_prefix[prefix] - primary_bits_;
    entries_[prefix] = static_cast<std::uint32_t>(end << 16) | kSubTable | sub_bits;
    end += std::size_t(1) << sub_bits;
  }
  entries_.resize(end, kInvalid);
  for (std::size_t s = 0; s < count; ++s) {
    const unsigned len = lengths[s];
    if (len == 0) continue;
    const std::uint32_t entry = static_cast<std::uint32_t>(s << 16) | len;
    if (len <= primary_bits_) {
      for (std::size_t i = reversed[s]; i < primary_size; i += std::size_t(1) << len) entries_[i] = entry;
    } else {
      const std::uint32_t pointer = entries_[reversed[s] & primary_mask_];
      const std::size_t base = pointer >> 16;
      const std::size_t sub_size = std::size_t(1) << (pointer & 0xffu);
      const unsigned rest = len - primary_bits_;
      for (std::size_t i = reversed[s] >> primary_bits_; i < sub_size; i += std::size_t(1) << rest) {
        entries_[base + i] = entry;
      }
    }
  }
  return "";
}

void HuffmanTable::throw_invalid(const BitReader& in, const char* what) {
  // Zero padding past the end of a truncated stream can look like an unused code.
  if (in.available() < kMaxCodeBits) in.throw_truncated();
  throw DataError(in.source_name(), 0,
                  std::string("invalid ") + what + " Huffman code near byte " + std::to_string(in.byte_offset()));
}

// ---------------------------------------------------------------- Inflater

namespace {
constexpr std::uint16_t kLengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                           31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::uint8_t kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                           2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::uint16_t kDistanceBase[30] = {1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
                                             33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
                                             1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::uint8_t kDistanceExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                             6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
constexpr std::uint8_t kCodeLengthOrder[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
}  // namespace

Inflater::Inflater(BitReader& input)
    : in_(input),
      window_(kHistory + kOutput + kSlack),
      literal_lengths_(10, 288),
      distances_(8, 32),
      code_lengths_(7, 19) {}

void Inflater::reset() {
  state_ = State::block_header;
  final_block_ = false;
  stored_left_ = 0;
  read_pos_ = write_pos_ = 0;
}

void Inflater::fail(const std::string& problem) const {
  throw DataError(in_.source_name(), 0,
                  problem + " (deflate data near byte " + std::to_string(in_.byte_offset()) + ")");
}

std::size_t Inflater::read(std::uint8_t* out, std::size_t max) {
  std::size_t delivered = 0;
  while (delivered < max) {
    if (read_pos_ < write_pos_) {
      const std::size_t n = std::min(max - delivered, write_pos_ - read_pos_);
      std::memcpy(out + delivered, window_.data() + read_pos_, n);
      read_pos_ += n;
      delivered += n;
      continue;
    }
    if (state_ == State::done) break;
    if (write_pos_ + kMaxMatch > kHistory + kOutput) slide_window();
    switch (state_) {
      case State::block_header:
        read_block_header();
        break;
      case State::stored:
        decode_stored();
        break;
      case State::huffman:
        decode_huffman();
        break;
      case State::done:
        break;
    }
  }
  return delivered;
}

void Inflater::slide_window() {
  // Only called with nothing pending, so just the last 32 KiB (reachable by distances) is kept.
  std::memmove(window_.data(), window_.data() + write_pos_ - kHistory, kHistory);
  read_pos_ = write_pos_ = kHistory;
}

void Inflater::read_block_header() {
  in_.refill();
  final_block_ = in_.bits(1) != 0;
  const std::uint32_t type = in_.bits(2);
  if (type == 0) {
    in_.align_to_byte();
    const std::uint32_t length = in_.bits(16);
    const std::uint32_t complement = in_.bits(16);
    if ((length ^ 0xffffu) != complement) {
      fail("stored block length " + std::to_string(length) + " does not match its complement " +
           std::to_string(complement));
    }
    stored_left_ = length;
    state_ = State::stored;
  } else if (type == 1) {
    use_fixed_tables();
    state_ = State::huffman;
  } else if (type == 2) {
    read_dynamic_tables();
    state_ = State::huffman;
  } else {
    fail("invalid block type 3");
  }
}

void Inflater::use_fixed_tables() {
  std::uint8_t lengths[288 + 32];
  std::fill(lengths, lengths + 144, 8);
  std::fill(lengths + 144, lengths + 256, 9);
  std::fill(lengths + 256, lengths + 280, 7);
  std::fill(lengths + 280, lengths + 288, 8);
  std::fill(lengths + 288, lengths + 320, 5);
  literal_lengths_.build(lengths, 288);
  distances_.build(lengths + 288, 32);
}

void Inflater::read_dynamic_tables() {
  in_.refill();
  const std::uint32_t literal_count = in_.bits(5) + 257;
  const std::uint32_t distance_count = in_.bits(5) + 1;
  const std::uint32_t code_length_count = in_.bits(4) + 4;
  if (literal_count > 286) fail("too many literal/length codes (" + std::to_string(literal_count) + ", at most 286)");
  if (distance_count > 30) fail("too many distance codes (" + std::to_string(distance_count) + ", at most 30)");

  std::uint8_t code_length_lengths[19] = {};
  for (std::uint32_t i = 0; i < code_length_count; ++i)
    code_length_lengths[kCodeLengthOrder[i]] = static_cast<std::uint8_t>(in_.bits(3));
  const char* problem = code_lengths_.build(code_length_lengths, 19);
  if (*problem != '\0') fail(std::string("invalid code-length code: ") + problem);

  const std::uint32_t total = literal_count + distance_count;
  std::uint32_t n = 0;
  while (n < total) {
    in_.refill();
    const std::uint32_t symbol = code_lengths_.decode(in_, "code-length");
    if (symbol < 16) {
      lengths_[n++] = static_cast<std::uint8_t>(symbol);
      continue;
    }
    std::uint8_t value = 0;
    std::uint32_t repeat = 0;
    if (symbol == 16) {
      if (n == 0) fail("code length repeat with no previous length");
      value = lengths_[n - 1];
      repeat = 3 + in_.bits(2);
    } else if (symbol == 17) {
      repeat = 3 + in_.bits(3);
    } else {
      repeat = 11 + in_.bits(7);
    }
    if (n + repeat > total) fail("code length repeat runs past the " + std::to_string(total) + " lengths");
    std::fill(lengths_.begin() + n, lengths_.begin() + n + repeat, value);
    n += repeat;
  }
  if (lengths_[256] == 0) fail("dynamic block has no end-of-block code");
  problem = literal_lengths_.build(lengths_.data(), literal_count);
  if (*problem != '\0') fail(std::string("invalid literal/length code: ") + problem);
  problem = distances_.build(lengths_.data() + literal_count, distance_count);
  if (*problem != '\0') fail(std::string("invalid distance code: ") + problem);
}

void Inflater::decode_stored() {
  const std::size_t room = kHistory + kOutput - write_pos_;
  const std::size_t want = std::min(room, stored_left_);
  std::size_t got = 0;
  while (got < want) {
    const std::size_t n = in_.read_bytes(window_.data() + write_pos_ + got, want - got);
    if (n == 0) in_.throw_truncated();
    got += n;
  }
  write_pos_ += got;
  stored_left_ -= got;
  if (stored_left_ == 0) state_ = final_block_ ? State::done : State::block_header;
}

void Inflater::decode_huffman() {
  std::uint8_t* window = window_.data();
  std::size_t pos = write_pos_;
  const std::size_t stop = kHistory + kOutput - kMaxMatch;
  while (pos <= stop) {
    // One refill covers a whole length/distance pair: 15 + 5 + 15 + 13 = 48 <= 56 bits.
    in_.refill();
    const std::uint32_t symbol = literal_lengths_.decode(in_, "literal/length");
    if (symbol < 256) {
      window[pos++] = static_cast<std::uint8_t>(symbol);
      continue;
    }
    if (symbol == 256) {
      state_ = final_block_ ? State::done : State::block_header;
      break;
    }
    if (symbol > 285) fail("invalid literal/length symbol " + std::to_string(symbol));
    const std::uint32_t length_index = symbol - 257;
    const unsigned length_extra = kLengthExtra[length_index];
    const std::size_t length =
        kLengthBase[length_index] + static_cast<std::size_t>(in_.peek() & ((1u << length_extra) - 1));
    in_.consume(length_extra);
    const std::uint32_t distance_symbol = distances_.decode(in_, "distance");
    if (distance_symbol > 29) fail("invalid distance symbol " + std::to_string(distance_symbol));
    const unsigned distance_extra = kDistanceExtra[distance_symbol];
    const std::size_t distance =
        kDistanceBase[distance_symbol] + static_cast<std::size_t>(in_.peek() & ((1u << distance_extra) - 1));
    in_.consume(distance_extra);
    if (distance > pos) {
      fail("distance " + std::to_string(distance) + " reaches before the start of the output (" + std::to_string(pos) +
           " bytes available)");
    }
    std::uint8_t* dst = window + pos;
    const std::uint8_t* src = dst - distance;
    if (distance >= 8) {
      // 8-byte chunks never overlap within a chunk when distance >= 8; the last chunk may write
      // up to 7 bytes past the match into kSlack / not-yet-written space.
      for (std::size_t i = 0; i < length; i += 8) std::memcpy(dst + i, src + i, 8);
    } else if (distance == 1) {
      std::memset(dst, *src, length);
    } else {
      for (std::size_t i = 0; i < length; ++i) dst[i] = src[i];
    }
    pos += length;
  }
  write_pos_ = pos;
}

std::vector<std::uint8_t> inflate_bytes(const std::uint8_t* data, std::size_t size, std::size_t max_output,
                                        const std::string& name) {
  MemorySource source(data, size, name);
  BitReader bits(source);
  Inflater inflater(bits);
  std::vector<std::uint8_t> out;
  std::uint8_t chunk[16384];
  for (;;) {
    const std::size_t n = inflater.read(chunk, sizeof chunk);
    if (n == 0) break;
    if (out.size() + n > max_output) {
      throw DataError(name, 0,
                      "decompressed size exceeds the limit of " + std::to_string(max_output) + " bytes (zip bomb?)");
    }
    out.insert(out.end(), chunk, chunk + n);
  }
  return out;
}

}  // namespace attn
