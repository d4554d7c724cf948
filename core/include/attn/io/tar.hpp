// Streaming reader for ustar / GNU / pax tar archives over a ByteSource.
//
// No tensors here (the shape legend B, T, D, H, V, U, A does not apply). Entries are visited in
// archive order and their data read in chunks, so an archive is never held in memory. Supported:
// regular files and folders, GNU long names ('L'), pax 'path' records ('x'), octal and base-256
// sizes, header checksums, the two zero end blocks. Links, devices, FIFOs and GNU long link
// names are skipped. Everything malformed throws DataError naming the archive and the entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "attn/io/byte_source.hpp"

namespace attn {

enum class TarEntryType { file, directory };

struct TarEntry {
  std::string name;  // full path inside the archive ("aclImdb/train/pos/0_9.txt")
  std::uint64_t size = 0;
  TarEntryType type = TarEntryType::file;
};

class TarReader {
 public:
  // Entries (files, long-name and pax records) larger than max_entry_bytes are rejected.
  TarReader(ByteSource& archive, std::uint64_t max_entry_bytes);

  // Moves to the next file or folder, skipping the unread rest of the current one. Returns false
  // after the end-of-archive blocks.
  bool next(TarEntry& entry);
  // Reads up to max bytes of the current entry's data; 0 at the end of the entry.
  std::size_t read(std::uint8_t* out, std::size_t max);
  // Discards the rest of the current entry.
  void skip();

 private:
  static constexpr std::size_t kBlock = 512;
  static constexpr std::size_t kMaxLongName = 65536;

  // Reads exactly one 512-byte block; false at a clean end of input, throws if only part of it.
  bool read_block(std::uint8_t* block);
  // Reads and discards `count` bytes of entry data; what names the entry for errors.
  void discard(std::uint64_t count);
  std::string read_small_entry(std::uint64_t size, const std::string& what);
  [[noreturn]] void fail(const std::string& problem) const;

  ByteSource& in_;
  std::string name_;
  std::uint64_t max_entry_;
  std::uint64_t offset_ = 0;        // bytes consumed from the archive
  std::uint64_t data_left_ = 0;     // unread data of the current entry
  std::uint64_t padding_left_ = 0;  // zero padding after the current entry's data
  std::string current_;             // current entry name, for error messages
  std::uint64_t current_size_ = 0;
  bool ended_ = false;
};

}  // namespace attn
