// tegula lower: print what a kernel becomes for a target, after the whole pipeline or
// after one pass, with the decisions and their reasons.
#include <cstdio>

#include "core/Files.h"
#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "runtime/cli/Cli.h"
#include "runtime/cli/Tunable.h"
#include "targets/Target.h"

namespace tegula::cli {

static int lower_usage() {
  command_usage("lower");
  std::fprintf(stderr, "passes:");
  for (const std::string& p : ir::pass_names()) std::fprintf(stderr, " %s", p.c_str());
  std::fprintf(stderr, "\n");
  return 2;
}

/// "K=16,N=16": each a shape symbol of `kernel` and a power of two.
static Status parse_assume(const std::string& assume, const ir::Kernel& kernel, ir::LowerOptions& options) {
  std::vector<std::string> symbols = kernel.symbols();
  for (size_t pos = 0; pos < assume.size();) {
    size_t end = assume.find(',', pos);
    std::string item = assume.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? assume.size() : end + 1;
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      return error(ErrorCode::InvalidArgument, "bad --assume item '" + item + "' (expected SYMBOL=POWER_OF_TWO)");
    TG_ASSIGN_OR_RETURN(int64_t div, parse_integer(item.substr(eq + 1), "--assume " + item));
    if (div < 1 || (div & (div - 1)))
      return error(ErrorCode::InvalidArgument, "bad --assume item '" + item + "' (expected SYMBOL=POWER_OF_TWO)");
    std::string name = item.substr(0, eq);
    bool known = false;
    std::string list;
    for (const std::string& s : symbols) {
      known = known || s == name;
      list += (list.empty() ? "" : ", ") + s;
    }
    if (!known)
      return error(ErrorCode::InvalidArgument, "--assume " + item + ": kernel '" + kernel.name +
                                                   "' has no shape symbol '" + name + "' (its symbols: " +
                                                   (list.empty() ? "none" : list) + ")");
    options.divisibility[name] = div;
  }
  return Status::ok();
}

/// A kernel with tunables and no --tune: the ranking's first at --shape (each symbol 4096
/// when not given), lowered with the divisibility that shape gives unless --assume says.
/// `explained` gets the ranking table and the reason for the choice.
static Result<ir::Kernel> choose_by_ranking(const std::string& text, const std::string& file, const ir::Kernel& any,
                                           const TargetDescription& target, const std::string& shape_text,
                                           ir::LowerOptions& options, std::vector<std::string>* explained) {
  TG_ASSIGN_OR_RETURN(auto shape, parse_shape(any, shape_text, 4096));
  if (options.divisibility.empty()) options.divisibility = launch_lower_options(shape, 0).divisibility;
  ir::RankRequest request{shape, options};
  request.lower.stop_after.clear();
  TG_ASSIGN_OR_RETURN(ir::Ranking r, ir::rank_candidates(text, file, target, request));
  std::string at;
  for (const auto& [name, v] : shape) at += (at.empty() ? "" : ", ") + name + "=" + std::to_string(v);
  if (r.legal.empty())
    return error(ErrorCode::Unsupported, "no candidate of the tune space lowers for " + target.name + " at " + at + ":\n" +
                                              ir::ranking_table(r, 0, 10));
  const ir::Candidate& best = r.legal.front();
  explained->push_back("tunables: chose " + ir::binding_text(best.binding) + ", ranked first of " +
                       std::to_string(r.legal.size()) + " legal candidates (" + std::to_string(r.dropped.size()) +
                       " dropped) for " + target.name + " at " + at + ": predicted " +
                       std::to_string(best.estimate.predicted_us) + " us, " + best.estimate.limiter + "-limited, " +
                       std::to_string(best.estimate.resident) + " blocks per CU (" + best.estimate.resident_limit +
                       "), " + std::to_string(best.estimate.waves) + " waves");
  std::string table = ir::ranking_table(r, 10, 10);
  for (size_t pos = 0; pos < table.size();) {
    size_t end = table.find('\n', pos);
    explained->push_back(table.substr(pos, end - pos));
    pos = end == std::string::npos ? table.size() : end + 1;
  }
  return ir::parse_and_verify(text, file, &best.binding);
}

int cmd_lower(const std::vector<std::string>& args) {
  std::string file, target_name, device, assume, tune_text, shape_text;
  ir::LowerOptions options;
  bool explain = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    Result<std::string> value = std::string();
    if (a == "--target" || a == "--device" || a == "--after" || a == "--assume" || a == "--raster" || a == "--tune" ||
        a == "--shape") {
      value = option_value(args, i);
      if (!value.is_ok()) return fail("lower", value.status(), 2);
    }
    if (a == "--target") {
      target_name = *value;
    } else if (a == "--device") {
      device = *value;
    } else if (a == "--after") {
      options.stop_after = *value;
    } else if (a == "--assume") {
      assume += (assume.empty() ? "" : ",") + *value;
    } else if (a == "--raster") {
      auto g = parse_integer(*value, "--raster");
      if (!g.is_ok()) return fail("lower", g.status(), 2);
      options.raster_group = *g;
    } else if (a == "--tune") {
      tune_text = *value;
    } else if (a == "--shape") {
      shape_text += (shape_text.empty() ? "" : ",") + *value;
    } else if (a == "--explain") {
      explain = true;
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "tegula lower: unknown option '%s'\n", a.c_str());
      return lower_usage();
    } else if (!file.empty()) {
      return lower_usage();
    } else {
      file = a;
    }
  }
  if (file.empty() || target_name.empty() == device.empty()) return lower_usage();
  auto text = read_file(file, kMaxSourceBytes);
  if (!text.is_ok()) {
    std::fprintf(stderr, "tegula lower: %s\n", text.status().message().c_str());
    return 1;
  }
  ir::TuneSpace space;
  auto kernel = parse_cli_kernel(*text, file, tune_text, &space);
  if (!kernel.is_ok()) {
    std::fprintf(stderr, "%s\n", kernel.status().str().c_str());
    return 1;
  }
  if (Status st = parse_assume(assume, *kernel, options); !st.is_ok()) return fail("lower", st, 2);
  if (!shape_text.empty() && (space.empty() || !tune_text.empty()))
    return fail("lower", error(ErrorCode::InvalidArgument, "--shape ranks tunables; this kernel has none to choose"), 2);
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
  std::vector<std::string> explained;
  if (!space.empty() && tune_text.empty()) {
    auto chosen = choose_by_ranking(*text, file, *kernel, *target, shape_text, options, &explained);
    if (!chosen.is_ok()) return fail("lower", chosen.status());
    *kernel = std::move(chosen).value();
  }
  auto lowered = ir::lower(*kernel, *target, options);
  if (!lowered.is_ok()) {
    std::fprintf(stderr, "%s\n", lowered.status().str().c_str());
    return 1;
  }
  if (explain) {
    for (const std::string& line : explained) std::printf("// %s\n", line.c_str());
    for (const std::string& line : lowered->log) std::printf("// %s\n", line.c_str());
  }
  std::fputs(ir::print_kernel(lowered->kernel).c_str(), stdout);
  return 0;
}

}  // namespace tegula::cli
