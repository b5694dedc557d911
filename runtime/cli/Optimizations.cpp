// tegula optimizations: the optimization matrix (ir/lower/optimizations/), every row on every
// built-in target, each cell computed by lowering the row's solution kernel in process.
#include <cstdio>

#include "ir/lower/optimizations/Optimizations.h"
#include "runtime/cli/Cli.h"
#include "targets/Target.h"

namespace tegula::cli {

namespace opt = ir::optimizations;

int cmd_optimizations(const std::vector<std::string>& args) {
  std::string target_name, kernel_of;
  bool json = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
      continue;
    }
    if (a != "--target" && a != "--kernel") {
      std::fprintf(stderr, "tegula optimizations: unknown argument '%s'\n", a.c_str());
      return command_usage("optimizations");
    }
    Result<std::string> value = option_value(args, i);
    if (!value.is_ok()) return fail("optimizations", value.status(), 2);
    (a == "--target" ? target_name : kernel_of) = *value;
  }
  if (!kernel_of.empty()) {
    const opt::Optimization* row = opt::find_optimization(kernel_of);
    if (!row) {
      std::string ids;
      for (const opt::Optimization* o : opt::all_optimizations()) ids += std::string(ids.empty() ? "" : ", ") + o->id;
      std::fprintf(stderr, "tegula optimizations: no row '%s' (rows: %s)\n", kernel_of.c_str(), ids.c_str());
      return 2;
    }
    std::fputs(row->kernel, stdout);
    return 0;
  }
  std::vector<TargetDescription> targets;
  std::vector<std::string> names = target_name.empty() ? builtin_target_names() : std::vector<std::string>{target_name};
  for (const std::string& n : names) {
    Result<TargetDescription> t = builtin_target(n);
    if (!t.is_ok()) return fail("optimizations", t.status(), target_name.empty() ? 1 : 2);
    targets.push_back(std::move(*t));
  }
  std::vector<opt::Column> columns;
  for (const TargetDescription& t : targets) columns.push_back({t.name, &t});
  opt::Matrix m = opt::compute_matrix(columns);
  if (json) {
    std::printf("%s\n", opt::matrix_json(m).dump(1).c_str());
    return 0;
  }
  std::fputs(target_name.empty() ? opt::matrix_text(m).c_str() : opt::column_text(m, 0).c_str(), stdout);
  return 0;
}

}  // namespace tegula::cli
