// The file-system half of model_file.hpp. Kept apart from the format code so that the wasm
// module (linked with -sFILESYSTEM=0, it saves to bytes and lets the page store them) never
// pulls in open/fsync/rename.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "attn/io/model_file.hpp"

namespace attn {
namespace {

std::string errno_text(int error) { return std::strerror(error); }

// Closes the descriptor on every path out of a function.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  // Closes now and reports the error (close can report a failed delayed write).
  int close_now() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  // The temporary sits next to the target: rename is only atomic within one file system.
  static std::atomic<unsigned> counter{0};
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    // O_EXCL: never write through a file (or symlink) someone else put there. Mode 0666 minus
    // the umask gives the permissions a plainly created file would have.
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    throw ModelFileError("cannot write '" + path + "': cannot create a temporary file in '" + folder_of(path) +
                         "': " + errno_text(errno));
  }
  FileDescriptor file(fd);
  auto fail = [&](const std::string& what, int error) {
    if (file.get() >= 0) file.close_now();
    ::unlink(temp.c_str());
    throw ModelFileError("cannot write '" + path + "': " + what + ": " + errno_text(error));
  };
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("writing the temporary file failed", errno);
    }
    written += static_cast<std::size_t>(n);
  }
  // fsync before rename: otherwise a crash can leave the new name pointing at empty data.
  if (::fsync(fd) != 0) fail("fsync failed", errno);
  if (file.close_now() != 0) fail("closing the temporary file failed", errno);
  if (::rename(temp.c_str(), path.c_str()) != 0) fail("renaming the temporary file over it failed", errno);
  // Make the rename itself durable. Best effort: some file systems refuse fsync on folders.
  const int folder = ::open(folder_of(path).c_str(), O_RDONLY | O_CLOEXEC);
  if (folder >= 0) {
    ::fsync(folder);
    ::close(folder);
  }
}

std::vector<std::uint8_t> read_file(const std::string& path, std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) throw ModelFileError("cannot read '" + path + "': no such file");
    throw ModelFileError("cannot read '" + path + "': " + errno_text(error));
  }
  FileDescriptor file(fd);
  struct stat info {};
  if (::fstat(fd, &info) != 0) throw ModelFileError("cannot read '" + path + "': " + errno_text(errno));
  if (!S_ISREG(info.st_mode)) throw ModelFileError("cannot read '" + path + "': it is not a regular file");
  if (static_cast<std::uint64_t>(info.st_size) > max_bytes) {
    throw ModelFileError("cannot read '" + path + "': it is too large (" + std::to_string(info.st_size) +
                         " bytes; the limit is " + std::to_string(max_bytes) + ")");
  }
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(info.st_size));
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw ModelFileError("cannot read '" + path + "': " + errno_text(errno));
    }
    if (n == 0) break;  // the file shrank while we read it
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

}  // namespace attn
