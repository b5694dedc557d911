/// \file
/// The rules of the tile IR. verify() checks a parsed or built kernel and fills in the type
/// of every expression. It rejects ill-formed kernels (shape or dtype mismatches, gemm
/// operands that do not fit, undefined names, scope misuse, static tile offsets outside
/// their tensor, ...) with a Status naming file:line:column and the cause.
#pragma once

#include "core/Status.h"
#include "ir/IR.h"

namespace tegula::ir {

struct VerifyOptions {
  /// Accept attributes whose names contain a '.', which lowering passes add (plan.*,
  /// layout.*); user kernels may not use them.
  bool allow_lowering_attrs = false;
};

Status verify(Kernel& k, const VerifyOptions& options = {});

/// Names the IR reserves (keywords, dtypes, scopes, builtin functions, block indices).
bool is_reserved_name(std::string_view name);

}  // namespace tegula::ir
