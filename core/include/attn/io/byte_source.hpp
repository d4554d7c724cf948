// Pull-based byte streams for user data files, and the error every reader throws on bad input.
//
// No tensors here (the shape legend B, T, D, H, V, U, A does not apply): sizes are byte counts.
// Readers are layered (FileSource → GzipReader → TarReader → loader), each pulling small chunks,
// so memory stays bounded whatever the file size. In wasm files arrive as ArrayBuffers and are
// wrapped in a MemorySource; natively a FileSource streams from disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace attn {

// Malformed or hostile user data. what() reads "file:line: problem" (or "file: problem" when the
// line is unknown / not meaningful, e.g. inside a compressed stream), so messages shown to users
// always say where the problem is.
class DataError : public std::runtime_error {
 public:
  DataError(const std::string& file, std::size_t line, const std::string& problem);
  // A message that already names the file in its own words (no "file:" prefix added).
  static DataError plain(const std::string& file, const std::string& message);

  const std::string& file() const { return file_; }
  // 1-based line, 0 when not applicable.
  std::size_t line() const { return line_; }

 private:
  DataError(const std::string& file, std::size_t line, const std::string& message, bool);
  std::string file_;
  std::size_t line_;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Copies up to max bytes into out and returns how many; 0 means the end of the stream (a
  // source returns fewer than max bytes only at the end or when that is all it has buffered).
  virtual std::size_t read(std::uint8_t* out, std::size_t max) = 0;
  // Shown in error messages and example origins ("reviews.csv", "aclImdb_train.tar.gz").
  virtual std::string name() const = 0;
  // Total size in bytes when known up front (for progress bars), 0 if unknown.
  virtual std::uint64_t size() const { return 0; }
};

// A view over bytes owned by the caller (e.g. a JS ArrayBuffer copied into wasm memory); the
// bytes must outlive the source.
class MemorySource : public ByteSource {
 public:
  MemorySource(const void* data, std::size_t size, std::string name);
  std::size_t read(std::uint8_t* out, std::size_t max) override;
  std::string name() const override { return name_; }
  std::uint64_t size() const override { return size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
  std::string name_;
};

// Streams a file from disk (native; with Emscripten's FILESYSTEM=0 every open fails cleanly).
// Missing, unreadable or directory paths throw DataError naming the path and the reason.
class FileSource : public ByteSource {
 public:
  explicit FileSource(const std::string& path);
  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::size_t read(std::uint8_t* out, std::size_t max) override;
  std::string name() const override { return path_; }
  std::uint64_t size() const override { return size_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::uint64_t size_ = 0;
};

// Counts the bytes pulled through it (progress reporting over any source).
class CountingSource : public ByteSource {
 public:
  explicit CountingSource(ByteSource& inner) : inner_(inner) {}
  std::size_t read(std::uint8_t* out, std::size_t max) override;
  std::string name() const override { return inner_.name(); }
  std::uint64_t size() const override { return inner_.size(); }
  std::uint64_t bytes_read() const { return bytes_read_; }

 private:
  ByteSource& inner_;
  std::uint64_t bytes_read_ = 0;
};

// Reads until out is full or the source ends; returns the count (< max only at the end).
std::size_t read_fully(ByteSource& source, std::uint8_t* out, std::size_t max);

}  // namespace attn
