// RFC 1952 gzip reading as a ByteSource, with a hard bound on the decompressed size.
//
// No tensors here (the shape legend B, T, D, H, V, U, A does not apply). Each member's header
// (FEXTRA, FNAME, FCOMMENT, FHCRC) is parsed and checked, its deflate data inflated in a stream,
// and its CRC-32 and ISIZE trailer verified; concatenated members read as one stream (what
// `cat a.gz b.gz` and pigz produce). Errors are DataError naming the compressed source.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attn/io/byte_source.hpp"
#include "attn/io/inflate.hpp"

namespace attn {

// CRC-32 (IEEE 802.3, reflected 0xEDB88320) as gzip stores it; start with crc = 0.
std::uint32_t crc32_update(std::uint32_t crc, const std::uint8_t* data, std::size_t size);

class GzipReader : public ByteSource {
 public:
  // Reading past max_output_bytes of decompressed data throws "decompressed size exceeds the
  // limit of N bytes (zip bomb?)"; input that ends early throws "truncated gzip stream".
  GzipReader(ByteSource& compressed, std::uint64_t max_output_bytes);

  std::size_t read(std::uint8_t* out, std::size_t max) override;
  std::string name() const override { return name_; }
  // Decompressed bytes delivered so far.
  std::uint64_t bytes_out() const { return total_out_; }

 private:
  enum class State { member_header, data, done };
  // Returns false at a clean end (no further member).
  bool read_member_header();
  void read_member_trailer();
  [[noreturn]] void fail(const std::string& problem) const;

  std::string name_;
  BitReader bits_;
  Inflater inflater_;
  std::uint64_t limit_;
  State state_ = State::member_header;
  std::uint64_t members_ = 0;
  std::uint32_t member_crc_ = 0;
  std::uint64_t member_size_ = 0;
  std::uint64_t total_out_ = 0;
};

}  // namespace attn
