#include "runtime/Elf.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "core/Files.h"

namespace tegula::runtime {
namespace {

#if defined(__x86_64__)
constexpr const char* kHostArch = "x86_64";
constexpr int kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr const char* kHostArch = "aarch64";
constexpr int kHostMachine = EM_AARCH64;
#elif defined(__riscv) && __riscv_xlen == 64
constexpr const char* kHostArch = "riscv64";
constexpr int kHostMachine = EM_RISCV;
#elif defined(__powerpc64__)
constexpr const char* kHostArch = "ppc64le";
constexpr int kHostMachine = EM_PPC64;
#elif defined(__i386__)
constexpr const char* kHostArch = "i686";
constexpr int kHostMachine = EM_386;
#else
constexpr const char* kHostArch = "unknown";
constexpr int kHostMachine = -1;
#endif

const char* machine_name(int machine) {
  switch (machine) {
    case EM_X86_64: return "x86_64";
    case EM_AARCH64: return "aarch64";
    case EM_RISCV: return "riscv";
    case EM_PPC64: return "ppc64";
    case EM_386: return "i386";
    case EM_ARM: return "arm";
    case EM_S390: return "s390";
    default: return nullptr;
  }
}

}  // namespace

const char* host_arch() { return kHostArch; }

bool arch_matches_host(const std::string& arch) {
  if (arch == kHostArch) return true;
  std::string host = kHostArch;
  return (host == "x86_64" && arch == "amd64") || (host == "aarch64" && arch == "arm64");
}

Status check_elf(const std::string& path) {
  // Not a plain open(): a library path that names a FIFO would block here forever.
  Result<int> opened = open_regular_file(path);
  if (!opened.is_ok()) {
    ErrorCode code = opened.status().code() == ErrorCode::Io && ::access(path.c_str(), F_OK) != 0 ? ErrorCode::NotFound : ErrorCode::Plugin;
    return error(code, "library: " + opened.status().message());
  }
  int fd = *opened;
  unsigned char header[EI_NIDENT + 4] = {0};
  ssize_t n = ::read(fd, header, sizeof(header));
  ::close(fd);
  if (n < ssize_t(sizeof(header)) || std::memcmp(header, ELFMAG, SELFMAG) != 0)
    return error(ErrorCode::Plugin, path + " is not an ELF shared library");
  int host_class = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;
  if (header[EI_CLASS] != host_class)
    return error(ErrorCode::Plugin, path + " is a " + (header[EI_CLASS] == ELFCLASS32 ? "32" : "64") +
                                        "-bit ELF file, the host is " + std::to_string(8 * sizeof(void*)) + "-bit");
  bool little = header[EI_DATA] == ELFDATA2LSB;
  uint16_t type = little ? uint16_t(header[16] | header[17] << 8) : uint16_t(header[16] << 8 | header[17]);
  uint16_t machine = little ? uint16_t(header[18] | header[19] << 8) : uint16_t(header[18] << 8 | header[19]);
  if (int(machine) != kHostMachine) {
    const char* name = machine_name(machine);
    return error(ErrorCode::Plugin, path + " is an ELF file for " +
                                        (name ? std::string(name) : "machine " + std::to_string(machine)) +
                                        ", the host is " + kHostArch);
  }
  if (type != ET_DYN) return error(ErrorCode::Plugin, path + " is an ELF file but not a shared library");
  return Status::ok();
}

}  // namespace tegula::runtime
