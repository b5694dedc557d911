#include "ir/Lower.h"

#include "ir/Parser.h"
#include "ir/Verifier.h"

namespace tegula::ir {

const std::vector<std::string>& pass_names() {
  static const std::vector<std::string> names = {};
  return names;
}

// The pass pipeline (issue: shared lowering) replaces this body; until then the verified
// kernel goes to backends unchanged, which every backend must accept anyway.
Result<LowerResult> lower(const Kernel& k, const TargetDescription& /*target*/, const LowerOptions& options) {
  if (!options.stop_after.empty()) return error(ErrorCode::NotFound, "unknown pass '" + options.stop_after + "'");
  return LowerResult{k, {}};
}

Result<Kernel> read_lowered(std::string_view text, const std::string& source) {
  TG_ASSIGN_OR_RETURN(Kernel k, parse_kernel(text, source));
  VerifyOptions opts;
  opts.allow_lowering_attrs = true;
  TG_RETURN_IF_ERROR(verify(k, opts));
  return k;
}

}  // namespace tegula::ir
