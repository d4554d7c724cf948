#include <doctest/doctest.h>

#include <string>

#include "attn/io/inflate.hpp"
#include "attn/random.hpp"
#include "support/archive_writer.hpp"

using attn::DataError;
using attn::inflate_bytes;
using namespace test_archive;

namespace {

Bytes text_like(std::size_t size, std::uint64_t seed) {
  static const char* words[] = {"the ",    "movie ",     "was ", "great ", "terrible ", "acting ",
                                "plot ",   "and ",       "i ",   "loved ", "it",        ". ",
                                "boring ", "wonderful ", "not ", "very ",  "director ", "scene\n"};
  attn::Rng rng(seed);
  Bytes out;
  while (out.size() < size) {
    const char* w = words[rng.below(18)];
    out.insert(out.end(), w, w + std::strlen(w));
  }
  out.resize(size);
  return out;
}

Bytes random_bytes(std::size_t size, std::uint64_t seed) {
  attn::Rng rng(seed);
  Bytes out(size);
  for (auto& b : out) b = static_cast<std::uint8_t>(rng.next_u32());
  return out;
}

Bytes inflate_all(const Bytes& stream, std::size_t limit = 1 << 26) {
  return inflate_bytes(stream.data(), stream.size(), limit);
}

std::string error_of(const Bytes& stream) {
  try {
    inflate_all(stream);
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}

// Dynamic block header bits up to (and including) the code-length code lengths.
void put_dynamic_header(BitWriter& w, unsigned hlit, unsigned hdist, const std::vector<unsigned>& code_length_lengths) {
  w.put(1, 1);
  w.put(2, 2);
  w.put(hlit - 257, 5);
  w.put(hdist - 1, 5);
  w.put(static_cast<std::uint32_t>(code_length_lengths.size() - 4), 4);
  for (unsigned len : code_length_lengths) w.put(len, 3);
}

}  // namespace

TEST_CASE("inflate.hand_worked_fixed_block") {
  // "a" as one fixed block, bits in stream order: BFINAL=1, BTYPE=01 (sent LSB first: 1,0),
  // literal 97 -> code 0x30+97 = 10010001 (8 bits, MSB first), end-of-block 256 -> 0000000.
  // Packed LSB-first: 1 1 0 1 0 0 1 0 | 0 0 1 0 0 0 0 0 | 0 0 -> 0x4b 0x04 0x00.
  const Bytes stream = {0x4b, 0x04, 0x00};
  CHECK(string_of(inflate_all(stream)) == "a");
  BitWriter w;
  deflate_fixed(bytes_of("a"), true, &w);
  CHECK(w.finish() == stream);
}

TEST_CASE("inflate.stored_blocks_round_trip") {
  const Bytes data = random_bytes(200000, 1);
  CHECK(inflate_all(deflate_stored(data, 65535)) == data);
  CHECK(inflate_all(deflate_stored(data, 1000)) == data);
  CHECK(inflate_all(deflate_stored(Bytes())).empty());
  // A non-final empty stored block followed by data.
  BitWriter w;
  w.put(0, 1);
  w.put(0, 2);
  w.align();
  w.put(0, 16);
  w.put(0xffff, 16);
  deflate_fixed(bytes_of("after empty"), true, &w);
  CHECK(string_of(inflate_all(w.finish())) == "after empty");
}

TEST_CASE("inflate.fixed_huffman_round_trip") {
  // 300 KB of repetitive text crosses the 96 KB window several times with live back-references.
  for (const Bytes& data :
       {text_like(300000, 2), random_bytes(70000, 3), Bytes(100000, 'z'), bytes_of("abcabcabcabcabcab")}) {
    const Bytes stream = deflate_fixed(data);
    CHECK(inflate_all(stream) == data);
  }
  // Overlapping copies with every short distance 1..9.
  Bytes periodic;
  for (unsigned period = 1; period <= 9; ++period) {
    for (unsigned i = 0; i < 300; ++i) periodic.push_back(static_cast<std::uint8_t>('a' + (i % period) + period));
  }
  CHECK(inflate_all(deflate_fixed(periodic)) == periodic);
}

TEST_CASE("inflate.streams_through_tiny_reads") {
  const Bytes data = text_like(150000, 4);
  const Bytes stream = deflate_fixed(data);
  attn::MemorySource source(stream.data(), stream.size(), "tiny");
  attn::BitReader bits(source);
  attn::Inflater inflater(bits);
  Bytes out;
  std::uint8_t buffer[7];
  for (std::size_t n; (n = inflater.read(buffer, 1 + out.size() % 7)) != 0;) out.insert(out.end(), buffer, buffer + n);
  CHECK(out == data);
  CHECK(inflater.finished());
}

TEST_CASE("inflate.rejects_malformed_blocks") {
  BitWriter reserved;
  reserved.put(1, 1);
  reserved.put(3, 2);
  CHECK(error_of(reserved.finish()).find("invalid block type 3") != std::string::npos);

  Bytes stored = deflate_stored(bytes_of("hello"));
  stored[3] ^= 0x01;  // NLEN no longer the complement of LEN
  CHECK(error_of(stored).find("does not match its complement") != std::string::npos);

  BitWriter too_far;  // a match at distance 1 before any output
  too_far.put(1, 1);
  too_far.put(1, 2);
  put_fixed_match(too_far, 3, 1);
  CHECK(error_of(too_far.finish()).find("distance 1 reaches before the start of the output (0 bytes available)") !=
        std::string::npos);

  BitWriter far_after_output;
  far_after_output.put(1, 1);
  far_after_output.put(1, 2);
  put_fixed_literal_length(far_after_output, 'x');
  put_fixed_match(far_after_output, 3, 2);
  CHECK(error_of(far_after_output.finish()).find("distance 2 reaches before") != std::string::npos);

  BitWriter bad_literal;  // symbol 286 has a fixed code but is not a valid symbol
  bad_literal.put(1, 1);
  bad_literal.put(1, 2);
  put_fixed_literal_length(bad_literal, 286);
  CHECK(error_of(bad_literal.finish()).find("invalid literal/length symbol 286") != std::string::npos);

  BitWriter bad_distance;  // distance symbol 30
  bad_distance.put(1, 1);
  bad_distance.put(1, 2);
  put_fixed_literal_length(bad_distance, 'x');
  put_fixed_literal_length(bad_distance, 257);
  bad_distance.put_code(30, 5);
  CHECK(error_of(bad_distance.finish()).find("invalid distance symbol 30") != std::string::npos);
}

TEST_CASE("inflate.rejects_malformed_dynamic_tables") {
  // Code-length code lengths are given in the order 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, ...
  BitWriter too_many;
  too_many.put(1, 1);
  too_many.put(2, 2);
  too_many.put(30, 5);  // HLIT = 287
  too_many.put(0, 5);
  too_many.put(0, 4);
  CHECK(error_of(too_many.finish()).find("too many literal/length codes (287, at most 286)") != std::string::npos);

  BitWriter too_many_distances;
  too_many_distances.put(1, 1);
  too_many_distances.put(2, 2);
  too_many_distances.put(0, 5);
  too_many_distances.put(31, 5);  // HDIST = 32
  too_many_distances.put(0, 4);
  CHECK(error_of(too_many_distances.finish()).find("too many distance codes (32, at most 30)") != std::string::npos);

  BitWriter oversubscribed;  // three code-length codes of length 1
  put_dynamic_header(oversubscribed, 257, 1, {1, 1, 1, 0});
  CHECK(error_of(oversubscribed.finish()).find("invalid code-length code: over-subscribed") != std::string::npos);

  BitWriter incomplete;  // lengths 2, 2, 2 (one slot of four unused)
  put_dynamic_header(incomplete, 257, 1, {2, 2, 2, 0});
  CHECK(error_of(incomplete.finish()).find("invalid code-length code: incomplete") != std::string::npos);

  // Code-length code: symbols 0 and 16 with 1-bit codes (canonical order: 0 -> "0", 16 -> "1").
  BitWriter repeat_first;
  put_dynamic_header(repeat_first, 257, 1, {1, 0, 0, 1});
  repeat_first.put_code(1, 1);  // symbol 16 with nothing to repeat
  CHECK(error_of(repeat_first.finish()).find("code length repeat with no previous length") != std::string::npos);

  // Symbols 1 ("0") and 18 ("1"): 258 lengths, all zero via 18 -> no end-of-block code.
  BitWriter no_end;
  put_dynamic_header(no_end, 257, 1, {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  no_end.put_code(1, 1);
  no_end.put(138 - 11, 7);
  no_end.put_code(1, 1);
  no_end.put(120 - 11, 7);
  CHECK(error_of(no_end.finish()).find("dynamic block has no end-of-block code") != std::string::npos);

  BitWriter past_end;
  put_dynamic_header(past_end, 257, 1, {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  past_end.put_code(1, 1);
  past_end.put(127, 7);  // 138
  past_end.put_code(1, 1);
  past_end.put(127, 7);  // 138 more: 276 > 258
  CHECK(error_of(past_end.finish()).find("code length repeat runs past the 258 lengths") != std::string::npos);
}

TEST_CASE("inflate.hand_built_dynamic_block") {
  // Literal/length lengths: 'a'(97) = 1, 256 = 2, 257 = 2 (complete: 1/2 + 1/4 + 1/4); one
  // distance code (symbol 0, length 1): incomplete, which RFC 1951 allows for a single code.
  // Canonical codes: 'a' -> 0, 256 -> 10, 257 -> 11; distance 0 -> 0.
  // HLIT = 258 (symbols 0..257), HDIST = 1; the 259 lengths are sent with the code-length code 18 -> 0, 1 -> 10, 2 ->
  // 11:
  //   18 (+86: 97 zeros), 1, 18 (+127: 138 zeros), 18 (+9: 20 zeros), 2, 2 | distance: 1.
  BitWriter w;
  put_dynamic_header(w, 258, 1, {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2});
  w.put_code(0, 1), w.put(86, 7);
  w.put_code(2, 2);
  w.put_code(0, 1), w.put(127, 7);
  w.put_code(0, 1), w.put(9, 7);
  w.put_code(3, 2);
  w.put_code(3, 2);
  w.put_code(2, 2);  // the distance code's length, 1
  // Data: 'a', then length 3 (symbol 257) at distance 1, then end of block -> "aaaa".
  w.put_code(0, 1);
  w.put_code(3, 2);
  w.put_code(0, 1);
  w.put_code(2, 2);
  CHECK(string_of(inflate_all(w.finish())) == "aaaa");
}

TEST_CASE("inflate.truncated_at_every_offset_throws") {
  const Bytes data = text_like(3000, 5);
  for (const Bytes& stream : {deflate_fixed(data), deflate_stored(data, 700)}) {
    for (std::size_t cut = 0; cut < stream.size(); ++cut) {
      const Bytes part(stream.begin(), stream.begin() + static_cast<std::ptrdiff_t>(cut));
      CHECK_THROWS_AS(inflate_all(part), DataError);
    }
  }
  CHECK(error_of(Bytes{0x4b}).find("truncated deflate stream") != std::string::npos);
}

TEST_CASE("inflate.corrupt_input_never_crashes_or_hangs") {
  // Random and bit-flipped streams either decode (within the output bound) or throw DataError;
  // the sanitizer build (ATTN_SANITIZE) turns any out-of-bounds access here into a failure.
  const Bytes valid = deflate_fixed(text_like(5000, 6));
  attn::Rng rng(77);
  int errors = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Bytes stream = trial < 1500 ? valid : random_bytes(64 + rng.below(512), 1000 + trial);
    if (trial < 1500) {
      for (unsigned flips = 1 + rng.below(4); flips > 0; --flips)
        stream[rng.below(static_cast<std::uint32_t>(stream.size()))] ^= static_cast<std::uint8_t>(1u << rng.below(8));
    }
    try {
      inflate_all(stream, 1 << 20);
    } catch (const DataError&) {
      ++errors;
    }
  }
  CHECK(errors > 1500);
}
