/// \file
/// A kernel's parameters and shape symbols without choosing a schedule: the kernel as
/// written, or a tunable one as its first candidate that meets its `where` conditions. No
/// binding changes a parameter or a symbol (tunables stand only where literals may, never in
/// a signature), so any instance gives them; the runtime reads a tunable kernel's launch
/// symbols this way, and the conformance suite's performance figures their buffers.
#pragma once

#include <string>
#include <string_view>

#include "core/Status.h"
#include "ir/IR.h"
#include "ir/Tunables.h"

namespace tegula::ir {

/// Parsed (and verified, with `verify`) as the first instance; an error when no binding meets
/// the conditions.
Result<Kernel> parse_first_instance(std::string_view text, const std::string& file, bool verify);
/// The same for a caller that has parsed the kernel's tune space already.
Result<Kernel> parse_first_instance(std::string_view text, const std::string& file, const TuneSpace& space, bool verify);

}  // namespace tegula::ir
