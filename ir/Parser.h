/// \file
/// Parse .tile text into a Kernel. Parsing checks syntax only; call verify() for the rules
/// of the IR. Any input, however malformed, gives either a Kernel or a Status naming
/// file:line:column and the cause; the parser never crashes, and nesting is bounded.
#pragma once

#include <string>
#include <string_view>

#include "core/Status.h"
#include "ir/IR.h"
#include "ir/Tunables.h"

namespace tegula::ir {

/// `file` names the input in error locations. A kernel with tunables (ir/Tunables.h) is
/// parsed as the instance `binding` names, and is an error without one.
Result<Kernel> parse_kernel(std::string_view text, const std::string& file = "<input>", const Binding* binding = nullptr);

/// Parse and verify in one step (the usual entry point).
Result<Kernel> parse_and_verify(std::string_view text, const std::string& file = "<input>",
                                const Binding* binding = nullptr);

}  // namespace tegula::ir
