#include "conformance/Host.h"

#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdint>
#include <ctime>
#include <string>

#include "core/Files.h"
#include "core/Sha256.h"
#include "tegula/tegula.h"

namespace tegula::conformance {

Json host_identity() {
  Json j = Json::object();
  utsname u{};
  if (::uname(&u) == 0) j.set("os", std::string(u.sysname) + " " + u.release + " " + u.machine);
  std::string cpu;
  if (Result<std::string> info = read_file("/proc/cpuinfo"); info.is_ok()) {
    size_t p = info->find("model name");
    if (p != std::string::npos) {
      size_t colon = info->find(':', p), end = info->find('\n', p);
      if (colon != std::string::npos && colon < end) cpu = info->substr(colon + 2, end - colon - 2);
    }
  }
  j.set("cpu", cpu);
  j.set("cores", int64_t(::sysconf(_SC_NPROCESSORS_ONLN)));
#ifdef __VERSION__
  j.set("compiler", __VERSION__);
#endif
  j.set("tegula_version", tegula_version());
  return j;
}

Result<std::string> file_sha256(const std::string& path) {
  // A FIFO in a bundle or as a library path would block a plain open() forever.
  TG_ASSIGN_OR_RETURN(int fd, open_regular_file(path));
  Sha256 h;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      ::close(fd);
      return error(ErrorCode::Io, "cannot read " + path);
    }
    if (n == 0) break;
    h.update(buf, size_t(n));
  }
  ::close(fd);
  return h.hex();
}

std::string timestamp(bool for_path) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, for_path ? "%Y%m%d-%H%M%S" : "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

}  // namespace tegula::conformance
