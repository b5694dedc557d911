/// \file
/// Checks made before dlopen, so a library built for another machine is refused with a
/// clear reason ("an ELF file for aarch64") instead of whatever dlerror() happens to say.
#pragma once

#include <string>

#include "core/Status.h"

namespace tegula::runtime {

/// The host's architecture as manifests spell it: "x86_64", "aarch64", ...
const char* host_arch();

/// Whether a manifest's library_arch names the host ("amd64" and "arm64" are accepted as
/// aliases).
bool arch_matches_host(const std::string& library_arch);

/// Ok when `path` is an ELF shared object for the host's class, byte order and machine.
Status check_elf(const std::string& path);

}  // namespace tegula::runtime
