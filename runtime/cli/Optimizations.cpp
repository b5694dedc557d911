// tegula optimizations: the optimization matrix (ir/lower/optimizations/), every row on every
// built-in target (or one, or a device's own description), each cell computed by lowering the
// row's solution kernel in process.
#include <cstdio>

#include "core/Files.h"

#include "ir/lower/optimizations/Optimizations.h"
#include "runtime/cli/Cli.h"
#include "targets/Target.h"

namespace tegula::cli {

namespace opt = ir::optimizations;

namespace {

/// The description the device hands over (a Vulkan device's reported matrices included);
/// prints the error, and false, when there is none.
bool device_target(const std::string& device, std::vector<TargetDescription>& out) {
  auto rt = open_runtime("optimizations");
  if (!rt.is_ok()) return false;  // open_runtime and pick_device print their errors
  auto d = pick_device(*rt, device, "optimizations");
  if (!d.is_ok()) return false;
  auto json = d->target_json();
  Result<TargetDescription> t = json.is_ok() ? parse_target(*json, device) : Result<TargetDescription>(json.status());
  if (!t.is_ok()) {
    fail("optimizations", t.status());
    return false;
  }
  out.push_back(std::move(*t));
  return true;
}

}  // namespace

int cmd_optimizations(const std::vector<std::string>& args) {
  std::string target_name, kernel_of, device, file;
  bool json = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
      continue;
    }
    if (a != "--target" && a != "--kernel" && a != "--device" && a != "--description") {
      std::fprintf(stderr, "tegula optimizations: unknown argument '%s'\n", a.c_str());
      return command_usage("optimizations");
    }
    Result<std::string> value = option_value(args, i);
    if (!value.is_ok()) return fail("optimizations", value.status(), 2);
    (a == "--target" ? target_name : a == "--device" ? device : a == "--description" ? file : kernel_of) = *value;
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
  if (!target_name.empty() + !device.empty() + !file.empty() > 1) return command_usage("optimizations");
  std::vector<TargetDescription> targets;
  std::vector<std::string> names = target_name.empty() ? builtin_target_names() : std::vector<std::string>{target_name};
  if (!file.empty()) {
    // A description file: a new column before it is built in, or one a report holds.
    names = {file};
    Result<std::string> text = read_file(file, kMaxSourceBytes);
    Result<TargetDescription> t = text.is_ok() ? parse_target(*text, file) : Result<TargetDescription>(text.status());
    if (!t.is_ok()) return fail("optimizations", t.status());
    targets.push_back(std::move(*t));
  } else if (!device.empty()) {
    names = {device};
    if (!device_target(device, targets)) return 1;
  }
  for (size_t i = 0; device.empty() && file.empty() && i < names.size(); ++i) {
    Result<TargetDescription> t = builtin_target(names[i]);
    if (!t.is_ok()) return fail("optimizations", t.status(), names.size() == 1 ? 2 : 1);
    targets.push_back(std::move(*t));
  }
  std::vector<opt::Column> columns;
  for (size_t i = 0; i < targets.size(); ++i)
    columns.push_back({device.empty() ? targets[i].name : device, &targets[i]});
  if (!file.empty()) columns[0].label = targets[0].name;
  opt::Matrix m = opt::compute_matrix(columns);
  if (json) {
    std::printf("%s\n", opt::matrix_json(m).dump(1).c_str());
    return 0;
  }
  std::fputs(names.size() > 1 ? opt::matrix_text(m).c_str() : opt::column_text(m, 0).c_str(), stdout);
  return 0;
}

}  // namespace tegula::cli
