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

/// The same with the kernel's shape symbols fixed: every use of a name in `shape_values`
/// (the signature's dimensions, the grid, the body) read as that integer literal, as a
/// tunable's is. The runtime builds such a variant for one launch's exact shapes on devices
/// whose description has the `shape_specialization` feature. Every shape symbol must get a
/// value, and a name in `shape_values` that is not one is an error.
Result<Kernel> parse_and_verify_specialized(std::string_view text, const std::string& file, const Binding* binding,
                                            const Binding& shape_values);

}  // namespace tegula::ir
