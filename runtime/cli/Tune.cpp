// tegula tune: choose a tunable kernel's binding for one shape class by measuring the
// ranking's best candidates on the device, and record the choice in the compile cache,
// where every later compile of the same text for the device finds it (runtime/Tune.h).
//
//   1. The cache is asked first: a launch of the kernel at the shape reports how its
//      binding was chosen; "measured" means a record exists, and nothing is measured again
//      unless --force.
//   2. Every candidate is ranked from the device's target description (ir/schedule/Rank.h).
//   3. The top N are compiled in parallel (each an instance: compile option tunables).
//   4. Each is checked on a small case (every symbol at most 197, a prime, so tiles have tails)
//      against the reference device's run of the same inputs; a candidate that fails is
//      never chosen.
//   5. Each that passed is timed at the full shape with device events (host clock where the
//      device cannot time), twice (in ranked order, then reversed: Measure.h), and the
//      fastest is recorded.
#include <chrono>
#include <cstdio>
#include <future>
#include <optional>
#include <thread>

#include <unistd.h>

#include "core/Files.h"
#include "runtime/cli/Cli.h"
#include "runtime/cli/Measure.h"
#include "runtime/cli/RunData.h"
#include "runtime/cli/Tunable.h"
#include "targets/Target.h"

namespace tegula::cli {
namespace {

struct TuneArgs {
  std::string file, device, bind_text;
  int64_t top = 8;
  int64_t repeat = 20;
  uint64_t seed = 1;
  bool force = false;
};

Status parse_tune_args(const std::vector<std::string>& args, TuneArgs& out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--device") {
      TG_ASSIGN_OR_RETURN(out.device, option_value(args, i));
    } else if (a == "--bind") {
      TG_ASSIGN_OR_RETURN(std::string v, option_value(args, i));
      out.bind_text += (out.bind_text.empty() ? "" : ",") + v;
    } else if (a == "--top" || a == "--repeat") {
      TG_ASSIGN_OR_RETURN(std::string v, option_value(args, i));
      TG_ASSIGN_OR_RETURN(int64_t n, parse_integer(v, a));
      if (n < 1 || n > 1000) return error(ErrorCode::InvalidArgument, a + " must be between 1 and 1000");
      (a == "--top" ? out.top : out.repeat) = n;
    } else if (a == "--seed") {
      TG_ASSIGN_OR_RETURN(std::string v, option_value(args, i));
      TG_ASSIGN_OR_RETURN(out.seed, parse_unsigned(v, "--seed"));
    } else if (a == "--force") {
      out.force = true;
    } else if (a.rfind("--", 0) == 0) {
      return error(ErrorCode::InvalidArgument, "unknown option '" + a + "'");
    } else if (out.file.empty()) {
      out.file = a;
    } else {
      return error(ErrorCode::InvalidArgument, "one kernel file at a time");
    }
  }
  if (out.file.empty()) return error(ErrorCode::InvalidArgument, "no kernel file (tegula tune --help)");
  return Status::ok();
}

/// Progress on stderr: a bar on a terminal; elsewhere (a log) one line per phase with its time, flushed, so a
/// tune cut off by a time limit still says where it was.
void progress(const char* what, size_t done, size_t total) {
  static const bool tty = isatty(2) != 0;
  static std::string phase;
  static auto phase_start = std::chrono::steady_clock::now();
  if (phase != what) {
    phase = what;
    phase_start = std::chrono::steady_clock::now();
    if (!tty) std::fprintf(stderr, "%s: %zu candidates\n", what, total);
  }
  if (!tty) {
    if (done == total)
      std::fprintf(stderr, "%s: done in %.1f s\n", what,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - phase_start).count());
    std::fflush(stderr);
    return;
  }
  constexpr size_t kWidth = 30;
  size_t filled = total ? done * kWidth / total : kWidth;
  std::fprintf(stderr, "\r%-9s [%s%s] %zu/%zu", what, std::string(filled, '#').c_str(),
               std::string(kWidth - filled, '.').c_str(), done, total);
  if (done == total) std::fprintf(stderr, "\n");
  std::fflush(stderr);
}

struct Measured {
  ir::Candidate candidate;
  std::string check = "-";  // "ok", "FAIL: ...", "error: ..."
  double ms = -1;
};

/// The shape of the correctness check: every symbol at most 197 (a prime: every tile size
/// meets a tail), small enough for the reference interpreter.
std::map<std::string, int64_t> check_shape(const std::map<std::string, int64_t>& shape) {
  std::map<std::string, int64_t> small;
  for (const auto& [name, v] : shape) small[name] = std::min<int64_t>(v, 197);
  return small;
}

Result<examples::LaunchData> launch_data(const ir::Kernel& k, const Bindings& b, const std::map<std::string, int64_t>& shape,
                                         uint64_t seed) {
  TG_ASSIGN_OR_RETURN(examples::LaunchData data, examples::make_launch_data(k, shape, seed));
  for (size_t i = 0; i < k.params.size(); ++i) {
    auto it = b.scalars.find(k.params[i].name);
    if (it != b.scalars.end()) data.scalars[i] = it->second;
  }
  return data;
}

/// The full-shape inputs on the device once, shared by every candidate's timing.
struct DeviceArgs {
  std::vector<Buffer> buffers;
  std::vector<Arg> args;
};

Result<DeviceArgs> upload(const Device& device, const ir::Kernel& k, const examples::LaunchData& data) {
  DeviceArgs d;
  d.buffers.resize(k.params.size());
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (!p.is_tensor) {
      d.args.push_back(dtype_is_float(p.dtype) ? Arg::number(data.scalars[i]) : Arg::integer(int64_t(data.scalars[i])));
      continue;
    }
    TG_ASSIGN_OR_RETURN(d.buffers[i], device.alloc(data.tensors[i].bytes.size()));
    TG_RETURN_IF_ERROR(d.buffers[i].write(data.tensors[i].bytes));
    d.args.push_back(Arg::tensor(d.buffers[i]));
  }
  for (int64_t s : data.symbols) d.args.push_back(Arg::integer(s));
  return d;
}

/// Milliseconds per launch over `repeat` launches, by device events, or the host clock
/// around a synchronize where the device cannot time. Launches run untimed first for at
/// least 50 ms: on vulkan:0 the H200 ran 10 launches at 2048^3 in 0.35 ms each straight
/// after a check, 0.066 ms each over 100 (bench/results/h200-2026-12-03b.md).
Result<double> time_launches(const Device& device, Kernel& kernel, const DeviceArgs& d, int64_t repeat) {
  auto warm_start = std::chrono::steady_clock::now();
  do {
    TG_RETURN_IF_ERROR(kernel.launch(d.args));
    TG_RETURN_IF_ERROR(device.synchronize());
  } while (std::chrono::steady_clock::now() - warm_start < std::chrono::milliseconds(50));
  TG_ASSIGN_OR_RETURN(Event start, device.create_event());
  TG_ASSIGN_OR_RETURN(Event end, device.create_event());
  auto host_start = std::chrono::steady_clock::now();
  TG_RETURN_IF_ERROR(start.record());
  for (int64_t r = 0; r < repeat; ++r) TG_RETURN_IF_ERROR(kernel.launch(d.args));
  TG_RETURN_IF_ERROR(end.record());
  TG_RETURN_IF_ERROR(end.synchronize());
  Result<double> ms = Event::elapsed_ms(start, end);
  if (ms.is_ok()) return *ms / double(repeat);
  if (ms.status().code() != ErrorCode::Unimplemented) return ms.status();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - host_start).count() / double(repeat);
}

/// Whether a measured choice is on record: one launch of the kernel at the full shape
/// reports how its binding was chosen.
Result<std::pair<std::string, std::string>> recorded_choice(const Device& device, const std::string& text,
                                                            const std::string& file, const DeviceArgs& d) {
  CompileOptions options;
  options.source_name = file;
  TG_ASSIGN_OR_RETURN(Kernel kernel, device.compile(text, options));
  TG_RETURN_IF_ERROR(kernel.launch(d.args));
  TG_RETURN_IF_ERROR(device.synchronize());
  return kernel.tunables();
}

/// Record `binding` for the class of a launch at `symbols`.
Status record(const Device& device, const std::string& text, const std::string& file, const ir::Kernel& k,
              const std::vector<int64_t>& symbols, const std::string& binding, double ms) {
  CompileOptions options;
  options.source_name = file;
  TG_ASSIGN_OR_RETURN(Kernel kernel, device.compile(text, options));
  // Only the tensors' offsets and the shape symbols decide the class.
  std::vector<tegula_arg> args;
  for (const ir::Param& p : k.params)
    args.push_back(p.is_tensor ? tegula_arg_tensor(nullptr, 0) : tegula_arg_float(0));
  for (int64_t s : symbols) args.push_back(tegula_arg_int(s));
  return status_from(tegula_kernel_record_tuning(kernel.handle(), args.data(), args.size(), binding.c_str(), ms));
}

void print_table(const std::vector<Measured>& rows, size_t chosen, size_t ranked_first) {
  std::printf("%4s  %-36s %12s %12s %8s  %s\n", "rank", "candidate", "predicted", "measured", "vs best", "check");
  double best = rows[chosen].ms;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Measured& m = rows[i];
    char measured[32] = "-", ratio[32] = "-";
    if (m.ms >= 0) {
      std::snprintf(measured, sizeof measured, "%.4f ms", m.ms);
      std::snprintf(ratio, sizeof ratio, "%.3fx", m.ms / best);
    }
    std::printf("%4zu  %-36s %9.1f us %12s %8s  %s%s%s\n", i + 1, ir::binding_text(m.candidate.binding).c_str(),
                m.candidate.estimate.predicted_us, measured, ratio, m.check.c_str(), i == chosen ? "  <- chosen" : "",
                i == ranked_first && i != chosen ? "  (ranked first)" : "");
  }
}

}  // namespace

int cmd_tune(const std::vector<std::string>& argv) {
  auto started = std::chrono::steady_clock::now();
  TuneArgs args;
  if (Status st = parse_tune_args(argv, args); !st.is_ok()) return fail("tune", st, 2);
  auto text = read_file(args.file, kMaxSourceBytes);
  if (!text.is_ok()) return fail("tune", text.status());
  ir::TuneSpace space;
  auto k = parse_cli_kernel(*text, args.file, "", &space);
  if (!k.is_ok()) return fail("tune", k.status());
  if (space.empty()) return fail("tune", error(ErrorCode::InvalidArgument, args.file + ": the kernel has no tunables"));
  auto bindings = parse_run_bindings(*k, args.bind_text);
  if (!bindings.is_ok()) return fail("tune", bindings.status(), 2);
  for (const std::string& s : k->symbols())
    if (!bindings->symbols.count(s))
      return fail("tune", error(ErrorCode::InvalidArgument, "--bind gives no value for shape symbol " + s), 2);
  const std::map<std::string, int64_t>& shape = bindings->symbols;

  auto rt = open_runtime("tune");
  if (!rt.is_ok()) return 1;
  auto device = pick_device(*rt, args.device, "tune");
  if (!device.is_ok()) return 1;
  auto reference = rt->find_device("reference");
  if (!reference.is_ok()) return fail("tune", reference.status().with_context("checking candidates needs the reference device"));
  auto json = device->target_json();
  if (!json.is_ok()) return fail("tune", json.status());
  auto target = parse_target(*json, args.device);
  if (!target.is_ok()) return fail("tune", target.status());

  auto full = launch_data(*k, *bindings, shape, args.seed);
  if (!full.is_ok()) return fail("tune", full.status());
  auto on_device = upload(*device, *k, *full);
  if (!on_device.is_ok()) return fail("tune", on_device.status());
  if (!args.force) {
    auto recorded = recorded_choice(*device, *text, args.file, *on_device);
    if (!recorded.is_ok()) return fail("tune", recorded.status());
    if (recorded->second == "measured") {
      std::printf("cached: %s was measured for this shape class before (the compile cache holds the choice); "
                  "--force measures again\n", recorded->first.c_str());
      return 0;
    }
  }

  ir::RankRequest request{shape, launch_lower_options(shape, 0)};
  auto ranking = ir::rank_candidates(*text, args.file, *target, request);
  if (!ranking.is_ok()) return fail("tune", ranking.status());
  if (ranking->legal.empty()) {
    std::fputs(ir::ranking_table(*ranking, 0, 20).c_str(), stderr);
    return fail("tune", error(ErrorCode::Unsupported, "no candidate lowers for " + target->name));
  }
  std::vector<Measured> rows;
  for (size_t i = 0; i < ranking->legal.size() && i < size_t(args.top); ++i) rows.push_back({ranking->legal[i], "-", -1});
  std::printf("%zu legal candidates of %lld (%zu dropped); measuring the top %zu on %s\n", ranking->legal.size(),
              (long long)space.size(), ranking->dropped.size(), rows.size(), target->name.c_str());

  // Compile in parallel, with the variants the check and the timing will launch: on a
  // device that specialises per shape they are whole compiles, which would otherwise run
  // one after another at first launch. The kernels stay for the check and the timing
  // (compiling again would be a cache hit, which on Vulkan still hands the driver the
  // SPIR-V to compile).
  std::map<std::string, int64_t> small = check_shape(shape);
  auto small_data = launch_data(*k, *bindings, small, args.seed);
  if (!small_data.is_ok()) return fail("tune", small_data.status());
  progress("compile", 0, rows.size());
  std::vector<std::future<Result<Kernel>>> compiles;
  for (const Measured& m : rows) {
    compiles.push_back(std::async(std::launch::async, [&, binding = ir::binding_text(m.candidate.binding)]() -> Result<Kernel> {
      CompileOptions o;
      o.source_name = args.file;
      o.tunables = binding;
      TG_ASSIGN_OR_RETURN(Kernel kernel, device->compile(*text, o));
      TG_RETURN_IF_ERROR(kernel.warm_up_shape(small_data->symbols));
      TG_RETURN_IF_ERROR(kernel.warm_up_shape(full->symbols));
      return kernel;
    }));
  }
  std::vector<std::optional<Kernel>> kernels(rows.size());
  for (size_t i = 0; i < compiles.size(); ++i) {
    Result<Kernel> kernel = compiles[i].get();
    if (kernel.is_ok()) kernels[i] = std::move(*kernel);
    else rows[i].check = "error: " + kernel.status().message();
    progress("compile", i + 1, compiles.size());
  }

  // Check on the small case against the reference device (one reference run for all).
  examples::LaunchData expected = *small_data;
  {
    CompileOptions o;
    o.source_name = args.file;
    o.tunables = ir::binding_text(rows.front().candidate.binding);
    auto ran = run_on_device(*reference, *text, o, *k, expected, 0);
    if (!ran.is_ok()) return fail("tune", ran.status().with_context("on the reference device"));
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    progress("check", i, rows.size());
    if (rows[i].check != "-") continue;
    examples::LaunchData got = *small_data;
    auto ran = run_compiled(*device, *kernels[i], *k, got, 0);
    if (!ran.is_ok()) {
      rows[i].check = "error: " + ran.status().message();
      continue;
    }
    examples::CheckResult c = compare_runs(*k, got, expected);
    rows[i].check = c.passed ? "ok" : "FAIL: " + examples::format_check(c);
  }
  progress("check", rows.size(), rows.size());

  // Time at the full shape, each candidate twice (Measure.h).
  std::vector<Timing> timed = time_both_ways(rows.size(), [&](size_t i, size_t step) -> Result<double> {
    progress("measure", step, 2 * rows.size());
    if (rows[i].check != "ok") return -1.0;
    return time_launches(*device, *kernels[i], *on_device, args.repeat);
  });
  progress("measure", 2 * rows.size(), 2 * rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].check != "ok") continue;
    if (!timed[i].error.empty()) rows[i].check = "error: " + timed[i].error;
    else rows[i].ms = timed[i].ms;
  }

  size_t chosen = rows.size();
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].ms >= 0 && (chosen == rows.size() || rows[i].ms < rows[chosen].ms)) chosen = i;
  if (chosen == rows.size()) {
    for (const Measured& m : rows)
      std::printf("  %s: %s\n", ir::binding_text(m.candidate.binding).c_str(), m.check.c_str());
    return fail("tune", error(ErrorCode::Unsupported, "no measured candidate passed its check"));
  }
  print_table(rows, chosen, 0);
  std::string binding = ir::binding_text(rows[chosen].candidate.binding);
  std::vector<int64_t> symbols;
  for (const std::string& s : k->symbols()) symbols.push_back(shape.at(s));
  if (Status st = record(*device, *text, args.file, *k, symbols, binding, rows[chosen].ms); !st.is_ok())
    return fail("tune", st);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("chose %s: %.4f ms per launch; the ranking's first measured %.3fx the best; recorded in the compile "
              "cache (%.1f s)\n", binding.c_str(), rows[chosen].ms, rows[0].ms >= 0 ? rows[0].ms / rows[chosen].ms : 0.0,
              seconds);
  return 0;
}

}  // namespace tegula::cli
