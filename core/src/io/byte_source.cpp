#include "attn/io/byte_source.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace attn {

namespace {
std::string located(const std::string& file, std::size_t line, const std::string& problem) {
  if (file.empty()) return problem;
  if (line == 0) return file + ": " + problem;
  return file + ":" + std::to_string(line) + ": " + problem;
}
}  // namespace

DataError::DataError(const std::string& file, std::size_t line, const std::string& problem)
    : DataError(file, line, located(file, line, problem), true) {}

DataError::DataError(const std::string& file, std::size_t line, const std::string& message, bool)
    : std::runtime_error(message), file_(file), line_(line) {}

DataError DataError::plain(const std::string& file, const std::string& message) {
  return DataError(file, 0, message, true);
}

MemorySource::MemorySource(const void* data, std::size_t size, std::string name)
    : data_(static_cast<const std::uint8_t*>(data)), size_(size), name_(std::move(name)) {
  if (data_ == nullptr && size_ != 0)
    throw std::invalid_argument("MemorySource: null data with size " + std::to_string(size));
}

std::size_t MemorySource::read(std::uint8_t* out, std::size_t max) {
  const std::size_t n = std::min(max, size_ - position_);
  if (n != 0) std::memcpy(out, data_ + position_, n);
  position_ += n;
  return n;
}

FileSource::FileSource(const std::string& path) : path_(path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) {
    throw DataError(path, 0, std::string("cannot open the file: ") + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) throw DataError(path, 0, "is a folder, not a file");
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    throw DataError(path, 0, std::string("cannot open the file: ") + std::strerror(errno));
  }
  size_ = S_ISREG(info.st_mode) ? static_cast<std::uint64_t>(info.st_size) : 0;
}

FileSource::~FileSource() {
  if (file_ != nullptr) std::fclose(file_);
}

std::size_t FileSource::read(std::uint8_t* out, std::size_t max) {
  const std::size_t n = std::fread(out, 1, max, file_);
  if (n < max && std::ferror(file_)) {
    throw DataError(path_, 0, std::string("read error: ") + std::strerror(errno));
  }
  return n;
}

std::size_t CountingSource::read(std::uint8_t* out, std::size_t max) {
  const std::size_t n = inner_.read(out, max);
  bytes_read_ += n;
  return n;
}

std::size_t read_fully(ByteSource& source, std::uint8_t* out, std::size_t max) {
  std::size_t filled = 0;
  while (filled < max) {
    const std::size_t n = source.read(out + filled, max - filled);
    if (n == 0) break;
    filled += n;
  }
  return filled;
}

}  // namespace attn
