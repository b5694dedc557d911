#include "conformance/perf/PerfMeasure.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "conformance/Inputs.h"

namespace tegula::conformance {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

const char* kind_name(PerfKind k) {
  switch (k) {
    case PerfKind::Kernel: return "kernel";
    case PerfKind::Launch: return "launch";
    case PerfKind::Compile: return "compile";
  }
  return "?";
}

const char* bound_name(PerfBound b) {
  switch (b) {
    case PerfBound::Memory: return "memory";
    case PerfBound::Compute: return "compute";
    case PerfBound::Rate: return "rate";
    case PerfBound::Time: return "time";
  }
  return "?";
}

Json header(const PerfSpec& spec) {
  Json j = Json::object();
  j.set("name", spec.name);
  j.set("what", spec.what);
  j.set("kind", kind_name(spec.kind));
  j.set("bound", bound_name(spec.bound));
  return j;
}

/// The device buffers of one figure and its launch arguments. Inputs hold random values of
/// their dtype (the power a device draws, and so its clock under a cap, depends on the data:
/// zeros would flatter it); a block of values is written over the whole buffer.
struct Launch {
  std::vector<Buffer> buffers;
  std::vector<Arg> args;
};

Result<Launch> prepare(const Device& device, const PerfSpec& spec, uint64_t seed) {
  TG_ASSIGN_OR_RETURN(ir::Kernel k, parse_perf_kernel(spec));
  std::map<std::string, int64_t> symbols(spec.symbols.begin(), spec.symbols.end());
  Launch l;
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (!p.is_tensor) {
      double v = i < spec.scalars.size() ? spec.scalars[i] : 0;
      l.args.push_back(dtype_is_float(p.dtype) ? Arg::number(v) : Arg::integer(int64_t(v)));
      continue;
    }
    int64_t count = 1;
    for (const ir::Expr& d : p.shape) {
      if (d->kind == ir::ExprKind::IntImm) count *= d->int_value;
      else if (auto it = symbols.find(d->name); it != symbols.end()) count *= it->second;
      else return error(ErrorCode::Internal, spec.name + " binds no shape symbol " + d->name);
    }
    uint64_t bytes = uint64_t(count) * uint64_t(dtype_size(p.dtype));
    TG_ASSIGN_OR_RETURN(Buffer b, device.alloc(bytes));
    Values values = dtype_is_float(p.dtype) ? Values::Random : Values::Bits;
    std::vector<uint8_t> block = make_values(p.dtype, values, std::min<int64_t>(count, int64_t(1) << 20), seed + i, int(i));
    for (uint64_t at = 0; at < bytes; at += block.size())
      TG_RETURN_IF_ERROR(b.write(block.data(), std::min<uint64_t>(block.size(), bytes - at), at));
    l.args.push_back(Arg::tensor(b));
    l.buffers.push_back(std::move(b));
  }
  for (const std::string& s : k.symbols()) l.args.push_back(Arg::integer(symbols[s]));
  return l;
}

struct Stats {
  double median = 0, min = 0, max = 0;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Stats s;
  s.min = v.front();
  s.max = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  return s;
}

Json method_json(double compile_ms, int64_t warmup, double warmup_ms, int64_t per_rep, const std::vector<double>& reps,
                 const char* timer) {
  Stats s = stats(reps);
  Json m = Json::object();
  m.set("compile_ms", significant(compile_ms, 4));
  m.set("warmup_launches", warmup);
  m.set("warmup_ms", significant(warmup_ms, 4));
  m.set("reps", int64_t(reps.size()));
  m.set("launches_per_rep", per_rep);
  m.set("median_ms", significant(s.median, 6));
  m.set("min_ms", significant(s.min, 6));
  m.set("max_ms", significant(s.max, 6));
  m.set("spread_pct", significant((s.max - s.min) / s.median * 100, 3));
  m.set("timer", timer);
  m.set("clocks", "not readable through the tegula API");
  return m;
}

constexpr int kReps = 10;
constexpr double kWarmupMs = 100;
constexpr double kRepMs = 5;

/// The kernel compiled (the cache is off) and launched once; `ms` gets the wall time of both:
/// the runtime may compile again at the first launch (a variant for the launch's shapes).
Result<Kernel> compile_and_launch(const Device& device, const PerfSpec& spec, const Launch& l, double& ms) {
  Clock::time_point start = Clock::now();
  TG_ASSIGN_OR_RETURN(Kernel k, device.compile(spec.kernel));
  TG_RETURN_IF_ERROR(k.launch(l.args));
  TG_RETURN_IF_ERROR(device.synchronize());
  ms = ms_since(start);
  return k;
}

Result<Json> time_kernel(const Device& device, const PerfSpec& spec, uint64_t seed) {
  TG_ASSIGN_OR_RETURN(Launch l, prepare(device, spec, seed));
  double compile_ms = 0;
  TG_ASSIGN_OR_RETURN(Kernel k, compile_and_launch(device, spec, l, compile_ms));
  // Warm-up, which also estimates a launch's time.
  int64_t warmup = 0;
  Clock::time_point start = Clock::now();
  while (warmup < 3 || ms_since(start) < kWarmupMs) {
    TG_RETURN_IF_ERROR(k.launch(l.args));
    if (++warmup % 8 == 0 || warmup < 8) TG_RETURN_IF_ERROR(device.synchronize());
  }
  TG_RETURN_IF_ERROR(device.synchronize());
  double warmup_ms = ms_since(start);
  int64_t per_rep = std::clamp<int64_t>(int64_t(std::ceil(kRepMs / (warmup_ms / double(warmup)))), 1, 10000);
  TG_ASSIGN_OR_RETURN(Event begin, device.create_event());
  TG_ASSIGN_OR_RETURN(Event end, device.create_event());
  std::vector<double> reps;
  for (int r = 0; r < kReps; ++r) {
    TG_RETURN_IF_ERROR(begin.record());
    for (int64_t i = 0; i < per_rep; ++i) TG_RETURN_IF_ERROR(k.launch(l.args));
    TG_RETURN_IF_ERROR(end.record());
    TG_RETURN_IF_ERROR(end.synchronize());
    TG_ASSIGN_OR_RETURN(double ms, Event::elapsed_ms(begin, end));
    reps.push_back(ms / double(per_rep));
  }
  return method_json(compile_ms, warmup, warmup_ms, per_rep, reps, "device events around each batch");
}

Result<Json> time_launches(const Device& device, const PerfSpec& spec, uint64_t seed) {
  TG_ASSIGN_OR_RETURN(Launch l, prepare(device, spec, seed));
  double compile_ms = 0;
  TG_ASSIGN_OR_RETURN(Kernel k, compile_and_launch(device, spec, l, compile_ms));
  constexpr int64_t kBatch = 1000;
  Clock::time_point start = Clock::now();
  for (int64_t i = 0; i < kBatch; ++i) TG_RETURN_IF_ERROR(k.launch(l.args));
  TG_RETURN_IF_ERROR(device.synchronize());
  double warmup_ms = ms_since(start);
  std::vector<double> reps;
  for (int r = 0; r < kReps; ++r) {
    start = Clock::now();
    for (int64_t i = 0; i < kBatch; ++i) TG_RETURN_IF_ERROR(k.launch(l.args));
    TG_RETURN_IF_ERROR(device.synchronize());
    reps.push_back(ms_since(start) / double(kBatch));
  }
  return method_json(compile_ms, kBatch, warmup_ms, kBatch, reps, "host wall clock over each batch, one synchronisation");
}

Result<Json> time_compiles(const Device& device, const PerfSpec& spec, uint64_t seed) {
  TG_ASSIGN_OR_RETURN(Launch l, prepare(device, spec, seed));
  std::vector<double> reps;
  for (int r = 0; r < 3; ++r) {
    double ms = 0;
    TG_ASSIGN_OR_RETURN(Kernel k, compile_and_launch(device, spec, l, ms));
    reps.push_back(ms);
  }
  return method_json(reps.front(), 0, 0, 1, reps, "host wall clock: compile, first launch, synchronise");
}

}  // namespace

double significant(double v, int digits) {
  if (v == 0 || !std::isfinite(v)) return v;
  double scale = std::pow(10.0, digits - 1 - int(std::floor(std::log10(std::fabs(v)))));
  return std::round(v * scale) / scale;
}

double figure_value(const PerfSpec& spec, double ms) {
  if (!(ms > 0)) return 0;
  double s = ms * 1e-3;
  switch (spec.bound) {
    case PerfBound::Memory: return significant(spec.bytes / s / 1e9, 4);
    case PerfBound::Compute: return significant(spec.flops / s / 1e12, 4);
    case PerfBound::Rate: return significant(spec.items / s / 1e9, 4);
    case PerfBound::Time: return significant(spec.kind == PerfKind::Launch ? ms * 1e3 : ms, 4);
  }
  return 0;
}

const char* figure_unit(const PerfSpec& spec) {
  switch (spec.bound) {
    case PerfBound::Memory: return "GB/s";
    case PerfBound::Compute: return "TFLOP/s";
    case PerfBound::Rate: return spec.item_unit.c_str();
    case PerfBound::Time: return spec.kind == PerfKind::Launch ? "us" : "ms";
  }
  return "";
}

DeclaredPeak figure_peak(const PerfSpec& spec, const TargetDescription& t) {
  switch (spec.bound) {
    case PerfBound::Memory: return memory_peak_gbps(t);
    case PerfBound::Compute: {
      if (!spec.instruction.empty()) {
        const MatrixInstruction* m = t.find_instruction(spec.instruction);
        if (!m) return {0, t.name + " has no instruction " + spec.instruction};
        return instruction_peak_tflops(t, *m);
      }
      DeclaredPeak best{0, std::string("no instruction of ") + t.name + " for " + dtype_name(spec.dtype) + " declares a peak"};
      for (const MatrixInstruction& m : t.matrix_instructions) {
        if (std::find(m.a_types.begin(), m.a_types.end(), spec.dtype) == m.a_types.end()) continue;
        DeclaredPeak p = instruction_peak_tflops(t, m);
        if (p.value > best.value) best = {p.value, m.id + ": " + p.basis};
      }
      return best;
    }
    case PerfBound::Rate: return {0, "the description declares no rate for this"};
    case PerfBound::Time: return {0, "a time, not a rate"};
  }
  return {};
}

Json figure_json(const PerfSpec& spec, const TargetDescription& target, const Json& method) {
  Json j = header(spec);
  const Json* median = method.find("median_ms");
  double value = figure_value(spec, median && median->is_number() ? median->as_double() : 0);
  DeclaredPeak peak = figure_peak(spec, target);
  j.set("unit", figure_unit(spec));
  j.set("value", value);
  j.set("peak", peak.declared() ? Json(significant(peak.value, 6)) : Json());
  j.set("peak_basis", peak.basis);
  j.set("percent", peak.declared() ? Json(significant(value / significant(peak.value, 6) * 100, 3)) : Json());
  j.set("bytes", spec.bytes);
  j.set("flops", spec.flops);
  j.set("items", spec.items);
  j.set("method", method);
  return j;
}

Json unmeasured_figure(const PerfSpec& spec, const std::string& reason) {
  Json j = header(spec);
  j.set("not_measured", reason);
  return j;
}

Json measure_figure(const Device& device, const TargetDescription& target, const PerfSpec& spec, uint64_t seed) {
  if (!spec.unsupported.empty()) return unmeasured_figure(spec, spec.unsupported);
  Result<Json> method = error(ErrorCode::Internal, "no timing");
  try {
    switch (spec.kind) {
      case PerfKind::Kernel: method = time_kernel(device, spec, seed); break;
      case PerfKind::Launch: method = time_launches(device, spec, seed); break;
      case PerfKind::Compile: method = time_compiles(device, spec, seed); break;
    }
  } catch (const std::exception& e) {  // std::bad_alloc for a buffer the host cannot hold
    method = error(ErrorCode::OutOfMemory, e.what());
  }
  if (!method.is_ok()) return unmeasured_figure(spec, method.status().message());
  return figure_json(spec, target, *method);
}

}  // namespace tegula::conformance
