// tegula spec: a kernel with tunables from an algebraic spec (ir/spec/Spec.h), printed or
// written to a file. An error in the spec is shown under the spec with a caret at its column.
#include <cstdio>
#include <string>

#include "core/Files.h"
#include "ir/spec/Spec.h"
#include "runtime/cli/Cli.h"

namespace tegula::cli {
namespace {

int spec_failure(const std::string& spec, const std::string& dtypes, const Status& st) {
  std::fprintf(stderr, "tegula spec: %s\n", st.str().c_str());
  const SourceLoc& loc = st.loc();
  const std::string* shown = loc.file == "spec" ? &spec : loc.file == "--dtypes" ? &dtypes : nullptr;
  if (shown && loc.column > 0) std::fprintf(stderr, "  %s\n  %*s^\n", shown->c_str(), loc.column - 1, "");
  return 1;
}

}  // namespace

int cmd_spec(const std::vector<std::string>& args) {
  std::string spec, dtypes, out_file;
  ir::SpecOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--dtypes" || a == "--acc" || a == "--name" || a == "--out") {
      auto v = option_value(args, i);
      if (!v.is_ok()) return fail("spec", v.status(), 2);
      if (a == "--dtypes") dtypes = *v;
      if (a == "--name") options.name = *v;
      if (a == "--out") out_file = *v;
      if (a == "--acc") {
        std::optional<DType> t = parse_dtype(*v);
        if (!t) return fail("spec", error(ErrorCode::InvalidArgument, "--acc: unknown dtype '" + *v + "'"), 2);
        options.acc = *t;
      }
    } else if (a.rfind("--", 0) == 0 || !spec.empty()) {
      std::fprintf(stderr, "tegula spec: unexpected argument '%s'\n", a.c_str());
      return command_usage("spec");
    } else {
      spec = a;
    }
  }
  if (spec.empty()) return command_usage("spec");
  if (!dtypes.empty()) {
    auto parsed = ir::parse_spec_dtypes(dtypes);
    if (!parsed.is_ok()) return spec_failure(spec, dtypes, parsed.status());
    options.dtypes = *parsed;
  }
  auto text = ir::kernel_from_spec(spec, options);
  if (!text.is_ok()) return spec_failure(spec, dtypes, text.status());
  if (out_file.empty()) {
    std::fputs(text->c_str(), stdout);
    return 0;
  }
  Status st = write_file_atomic(out_file, *text);
  if (!st.is_ok()) return fail("spec", st);
  std::printf("%s: kernel written\n", out_file.c_str());
  return 0;
}

}  // namespace tegula::cli
