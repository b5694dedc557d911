/// \file
/// What the lowering passes share: the kernel being rewritten, the target description, the
/// options, and the decision log that `tegula lower` prints.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/Analysis.h"
#include "ir/IR.h"
#include "ir/Lower.h"
#include "targets/Target.h"

namespace tegula::ir {

struct LowerContext {
  Kernel kernel;
  const TargetDescription& target;
  LowerOptions options;
  std::vector<std::string> log;

  LowerContext(Kernel k, const TargetDescription& t, LowerOptions o)
      : kernel(std::move(k)), target(t), options(std::move(o)) {}

  void note(const std::string& line) { log.push_back(line); }
  /// The alloc statement of a shared/fragment buffer (allocs sit at the top of the body).
  Stmt* find_alloc(const std::string& name);
  BufferMap buffers() const { return kernel_buffers(kernel); }
};

/// "file:line:column: " for messages about a statement.
std::string where(const Stmt& s);

}  // namespace tegula::ir
