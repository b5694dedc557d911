/// \file
/// Running one case on a device, through the public runtime API only, and judging it.
///
/// The guards, in the order they are checked:
///  1. the kernel compiles (the compile cache is bypassed) and launches;
///  2. every tensor sits in a device buffer between two 4 KiB canary regions, which must
///     come back intact (an out-of-bounds write);
///  3. inputs must come back unchanged (a kernel that mutates what it reads);
///  4. outputs were poisoned before the launch and must match the reference interpreter,
///     including elements the kernel must leave alone (a missing or stray write);
///  5. the case runs a second time from freshly written buffers and must give the same
///     bits (nondeterminism, reads of uninitialised memory, stale results);
///  6. a forced matrix instruction must appear in the code of the executable that ran
///     (tegula_kernel_describe); a plugin that cannot show the code fails the case.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "conformance/Case.h"
#include "conformance/Record.h"
#include "conformance/Tolerances.h"
#include "tegula/tegula.hpp"

namespace tegula::conformance {

/// A worker's device, and the kernels it compiled for earlier cases: cases that share a
/// kernel (the same primitive on other shapes or values) reuse its executable, as an
/// application would; every case still runs twice from fresh buffers.
struct DeviceContext {
  Device device;
  std::map<std::string, std::shared_ptr<Kernel>> kernels;  ///< by kernel text
  std::vector<std::string> kernel_order;                   ///< oldest first, for eviction
};

/// Runs `spec` (which the device claims) and returns its record.
Record run_case(DeviceContext& ctx, const CaseSpec& spec, uint64_t run_seed, const Tolerances& table);

/// Compiles `spec` offline for its offline target through `plugin` and checks the
/// described code: CompileOnly, or Fail (also when a forced instruction's code cannot be
/// described).
Record run_offline_case(Runtime& runtime, const std::string& plugin, const CaseSpec& spec);

/// Whether `text` contains `pattern`, where a capital M, N or K right after its lowercase
/// letter (m64nNk16) stands for any decimal number (a ranged instruction dimension); other
/// capitals are literal. `found` gets the match.
bool contains_mnemonic(const std::string& text, const std::string& pattern, std::string* found = nullptr);

/// A record for a case that does not run: NotSupported with the reason.
Record not_supported_record(const CaseSpec& spec);

}  // namespace tegula::conformance
