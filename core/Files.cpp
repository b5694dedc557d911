#include "core/Files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <new>

namespace tegula {

namespace {

Status io_error(const std::string& what, const std::string& path, int err) {
  return Status(ErrorCode::Io, what + " '" + path + "': " + std::strerror(err));
}

/// Close `fd`, keeping the first error: close can report a deferred write failure.
int close_fd(int fd) {
  if (::close(fd) == 0) return 0;
  return errno;
}

std::string parent_dir(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

/// A name next to `path` that no other writer (thread or process) picks at the same time.
std::string temp_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

Status write_all(int fd, const std::string& data, const std::string& path) {
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error("cannot write", path, errno);
    }
    p += n;
    left -= size_t(n);
  }
  return Status::ok();
}

/// Make the rename itself durable. Best effort: some file systems refuse to fsync a folder,
/// and the data is already safe in the renamed file.
void sync_dir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  (void)::close(fd);
}

}  // namespace

Result<int> open_regular_file(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would wait for a writer forever. Only regular
  // files are accepted, so the flag never changes how the read behaves.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return io_error("cannot open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return io_error("cannot stat", path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    const char* what = S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a pipe" :
                       S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket" : "not a file";
    return Status(ErrorCode::Io, "'" + path + "' is " + what + ", not a regular file");
  }
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

Result<std::string> read_file(const std::string& path, uint64_t max_bytes) {
  TG_ASSIGN_OR_RETURN(int fd, open_regular_file(path));
  auto too_large = [&] {
    return Status(ErrorCode::OutOfRange, "'" + path + "' is larger than " + std::to_string(max_bytes) +
                                             " bytes, the most this input may have");
  };
  std::string out;
  struct stat st;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    if (uint64_t(st.st_size) > max_bytes) {
      ::close(fd);
      return too_large();
    }
    try {
      out.reserve(size_t(st.st_size));
    } catch (const std::bad_alloc&) {
      ::close(fd);
      return Status(ErrorCode::OutOfMemory, "out of memory reading '" + path + "'");
    }
  }

  // Read until EOF rather than trusting st_size: /proc files report 0 and files grow.
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return io_error("cannot read", path, err);
    }
    if (out.size() + size_t(n) > max_bytes) {
      ::close(fd);
      return too_large();
    }
    try {
      out.append(buf, size_t(n));
    } catch (const std::bad_alloc&) {
      ::close(fd);
      return Status(ErrorCode::OutOfMemory, "out of memory reading '" + path + "'");
    }
  }
  ::close(fd);
  return out;
}

Status write_file_atomic(const std::string& path, const std::string& data) {
  // The temporary lives in the destination's folder so that rename() stays on one file
  // system and is atomic: readers see the old file or the new one, never a partial one.
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    tmp = temp_name(path);
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) return io_error("cannot create", tmp, errno);
  }
  if (fd < 0) return io_error("cannot create", tmp, EEXIST);

  Status st = write_all(fd, data, tmp);
  if (st.is_ok() && ::fsync(fd) != 0) st = io_error("cannot sync", tmp, errno);
  int close_err = close_fd(fd);
  if (st.is_ok() && close_err != 0) st = io_error("cannot close", tmp, close_err);
  if (st.is_ok() && ::rename(tmp.c_str(), path.c_str()) != 0) {
    st = io_error("cannot rename '" + tmp + "' to", path, errno);
  }
  if (!st.is_ok()) {
    ::unlink(tmp.c_str());
    return st;
  }
  sync_dir(parent_dir(path));
  return Status::ok();
}

Status make_dirs(const std::string& path) {
  if (path.empty()) return Status(ErrorCode::InvalidArgument, "make_dirs: empty path");
  // Create each prefix ending before a '/', then the whole path.
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/') continue;
    if (path[i - 1] == '/') continue;  // "a//b" or a trailing slash
    std::string prefix = path.substr(0, i);
    if (::mkdir(prefix.c_str(), 0777) == 0) continue;
    int err = errno;
    struct stat st;
    if (err == EEXIST && ::stat(prefix.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
    if (err == EEXIST) err = ENOTDIR;
    return io_error("cannot create directory", prefix, err);
  }
  return Status::ok();
}

bool file_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace tegula
