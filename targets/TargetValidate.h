/// \file
/// Private: the consistency rules a parsed description must satisfy (see README,
/// "Validation"). Split from parsing so that each file reads as one kind of check.
#pragma once

#include "core/Status.h"
#include "targets/Target.h"
#include "targets/TargetJson.h"

namespace tegula {

/// Check everything that field-by-field parsing cannot: names, limits, cross references
/// between instructions and the target's features and dtypes, and every layout of every
/// instruction at every shape it allows.
Status validate_target(const TargetDescription& target, const JsonPath& root);

}  // namespace tegula
