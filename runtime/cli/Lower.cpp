// tegula lower: print what a kernel becomes for a target, after the whole pipeline or
// after one pass, with the decisions and their reasons.
#include <cstdio>
#include <cstdlib>

#include "core/Files.h"
#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "runtime/cli/Cli.h"
#include "targets/Target.h"

namespace tegula::cli {

static int lower_usage() {
  std::fprintf(stderr,
               "usage: tegula lower FILE (--target NAME | --device D) [--after PASS] [--explain]\n"
               "                          [--assume SYM=DIV,...] [--raster G]\n"
               "passes:");
  for (const std::string& p : ir::pass_names()) std::fprintf(stderr, " %s", p.c_str());
  std::fprintf(stderr, "\n");
  return 2;
}

int cmd_lower(const std::vector<std::string>& args) {
  std::string file, target_name, device, assume;
  ir::LowerOptions options;
  bool explain = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool more = i + 1 < args.size();
    if (a == "--target" && more) {
      target_name = args[++i];
    } else if (a == "--device" && more) {
      device = args[++i];
    } else if (a == "--after" && more) {
      options.stop_after = args[++i];
    } else if (a == "--assume" && more) {
      assume = args[++i];
    } else if (a == "--raster" && more) {
      options.raster_group = std::strtoll(args[++i].c_str(), nullptr, 10);
    } else if (a == "--explain") {
      explain = true;
    } else if (a.rfind("--", 0) == 0 || !file.empty()) {
      return lower_usage();
    } else {
      file = a;
    }
  }
  if (file.empty() || target_name.empty() == device.empty()) return lower_usage();
  for (size_t pos = 0; pos < assume.size();) {
    size_t end = assume.find(',', pos);
    std::string item = assume.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? assume.size() : end + 1;
    size_t eq = item.find('=');
    long long div = eq == std::string::npos ? 0 : std::strtoll(item.c_str() + eq + 1, nullptr, 10);
    if (eq == std::string::npos || div < 1 || (div & (div - 1))) {
      std::fprintf(stderr, "tegula lower: bad --assume item '%s' (expected SYMBOL=POWER_OF_TWO)\n", item.c_str());
      return 2;
    }
    options.divisibility[item.substr(0, eq)] = div;
  }
  auto text = read_file(file, kMaxSourceBytes);
  if (!text.is_ok()) {
    std::fprintf(stderr, "tegula lower: %s\n", text.status().message().c_str());
    return 1;
  }
  auto kernel = ir::parse_and_verify(*text, file);
  if (!kernel.is_ok()) {
    std::fprintf(stderr, "%s\n", kernel.status().str().c_str());
    return 1;
  }
  Result<TargetDescription> target = error(ErrorCode::NotFound, "no target");
  if (!device.empty()) {
    auto rt = open_runtime("lower");
    if (!rt.is_ok()) return 1;
    auto d = pick_device(*rt, device, "lower");
    if (!d.is_ok()) return 1;
    auto json = d->target_json();
    if (!json.is_ok()) {
      std::fprintf(stderr, "tegula lower: %s\n", json.status().message().c_str());
      return 1;
    }
    target = parse_target(*json, device);
  } else {
    target = builtin_target(target_name);
  }
  if (!target.is_ok()) {
    std::fprintf(stderr, "tegula lower: %s\n", target.status().message().c_str());
    return 1;
  }
  auto lowered = ir::lower(*kernel, *target, options);
  if (!lowered.is_ok()) {
    std::fprintf(stderr, "%s\n", lowered.status().str().c_str());
    return 1;
  }
  if (explain)
    for (const std::string& line : lowered->log) std::printf("// %s\n", line.c_str());
  std::fputs(ir::print_kernel(lowered->kernel).c_str(), stdout);
  return 0;
}

}  // namespace tegula::cli
