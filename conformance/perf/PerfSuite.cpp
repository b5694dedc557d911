#include "conformance/perf/PerfSuite.h"

#include <algorithm>
#include <string>

#include "conformance/Glob.h"
#include "conformance/WorkloadKernels.h"
#include "conformance/cases/Generator.h"
#include "ir/Analysis.h"
#include "ir/FirstInstance.h"
#include "ir/Lower.h"
#include "ir/Tunables.h"
#include "ir/lower/Lowered.h"

namespace tegula::conformance {
namespace {

std::string n(int64_t v) { return std::to_string(v); }

const char* dt(DType d) { return dtype_name(d); }


/// Why `spec` cannot run on `target`, or "": a dtype the description does not list, or a
/// lowering refusal (the shared memory a small device lacks).
std::string refusal(const PerfSpec& spec, const TargetDescription& target) {
  auto k = parse_perf_kernel(spec);
  if (!k.is_ok()) return "the kernel does not verify: " + k.status().message();
  if (Status held = ir::check_kernel_dtypes(*k, target); !held.is_ok()) return held.message();
  auto space = ir::parse_tune_space(spec.kernel, spec.name);
  if (space.is_ok() && !space->empty()) return "";  // the ranking decides, at compile time
  return lowering_refusal(spec.kernel, target);
}

PerfSpec memory_figure(std::string name, std::string what, std::string kernel,
                       std::vector<std::pair<std::string, int64_t>> symbols, double bytes) {
  PerfSpec s;
  s.name = std::move(name);
  s.what = std::move(what);
  s.kernel = std::move(kernel);
  s.symbols = std::move(symbols);
  s.bytes = bytes;
  s.bound = PerfBound::Memory;
  return s;
}

/// Global memory bandwidth by path, a row sum, the exp chain, contended atomics.
void add_primitives(std::vector<PerfSpec>& out, bool large) {
  const int64_t n_elems = large ? (int64_t(1) << 26) : (int64_t(1) << 22);  // f32: 256 MiB or 16 MiB a tensor
  const double copy_bytes = 2.0 * 4 * double(n_elems);
  out.push_back(memory_figure("tegula.perf.copy.registers", "global -> registers -> global, vectorised",
                              "kernel perf_copy_registers(X: f32[N], Y: f32[N]) grid(ceildiv(N, 4096)) threads(256) {\n"
                              "  alloc t: fragment f32[4096]\n  copy X[bx * 4096], t\n  copy t, Y[bx * 4096]\n}\n",
                              {{"N", n_elems}}, copy_bytes));
  // The same copy where no vector width is provable (N one short of a multiple of 4): the
  // vectorised-access row's "off" (PerfEffects.h).
  out.push_back(memory_figure("tegula.perf.copy.scalar", "global -> registers -> global, N odd: one element per access",
                              "kernel perf_copy_scalar(X: f32[N], Y: f32[N]) grid(ceildiv(N, 4096)) threads(256) {\n"
                              "  alloc t: fragment f32[4096]\n  copy X[bx * 4096], t\n  copy t, Y[bx * 4096]\n}\n",
                              {{"N", n_elems - 1}}, 2.0 * 4 * double(n_elems - 1)));
  out.push_back(memory_figure("tegula.perf.copy.shared", "global -> shared memory -> global",
                              "kernel perf_copy_shared(X: f32[N], Y: f32[N]) grid(ceildiv(N, 4096)) threads(256) {\n"
                              "  alloc s: shared f32[4096]\n  copy X[bx * 4096], s\n  copy s, Y[bx * 4096]\n}\n",
                              {{"N", n_elems}}, copy_bytes));
  const int64_t rows = n_elems / 1024;
  out.push_back(memory_figure(
      "tegula.perf.copy.pipelined",
      "global -> shared -> global in a pipelined loop (cp.async or TMA where the description offers them)",
      "kernel perf_copy_pipelined(X: f32[M, 1024], Y: f32[M, 1024]) grid(ceildiv(M, 64)) threads(256) {\n"
      "  alloc s: shared f32[8, 1024]\n"
      "  pipelined j in 0 .. 8, stages=3 {\n    copy X[bx * 64 + j * 8, 0], s\n    copy s, Y[bx * 64 + j * 8, 0]\n  }\n}\n",
      {{"M", rows}}, copy_bytes));
  // The pipelined copy's loop, not pipelined: the copy-engine and pipelining rows' "off".
  out.push_back(memory_figure(
      "tegula.perf.copy.loop", "the pipelined copy's loop as a plain for loop (no copy engine, no stages)",
      "kernel perf_copy_loop(X: f32[M, 1024], Y: f32[M, 1024]) grid(ceildiv(M, 64)) threads(256) {\n"
      "  alloc s: shared f32[8, 1024]\n"
      "  for j in 0 .. 8 {\n    copy X[bx * 64 + j * 8, 0], s\n    copy s, Y[bx * 64 + j * 8, 0]\n  }\n}\n",
      {{"M", rows}}, copy_bytes));
  out.push_back(memory_figure("tegula.perf.reduce.rows", "row sums of f32 rows of 1024, bandwidth-bound",
                              "kernel perf_reduce_rows(X: f32[M, 1024], Y: f32[M]) grid(ceildiv(M, 8)) threads(256) {\n"
                              "  alloc x: fragment f32[8, 1024]\n  alloc r: fragment f32[8]\n  copy X[bx * 8, 0], x\n"
                              "  reduce x, r, op=sum, axis=1\n  copy r, Y[bx * 8]\n}\n",
                              {{"M", rows}}, 4.0 * double(n_elems) + 4.0 * double(rows)));
  PerfSpec exp = memory_figure("tegula.perf.map.exp_chain", "four dependent exps per f32 element (exp(-exp(-exp(-exp(-x)))))",
                               "kernel perf_exp_chain(X: f32[N], Y: f32[N]) grid(ceildiv(N, 4096)) threads(256) {\n"
                               "  alloc t: fragment f32[4096]\n  copy X[bx * 4096], t\n"
                               "  map t = exp(-exp(-exp(-exp(-t))))\n  copy t, Y[bx * 4096]\n}\n",
                               {{"N", n_elems}}, copy_bytes);
  exp.bound = PerfBound::Rate;
  exp.items = 4.0 * double(n_elems);
  exp.item_unit = "G exp/s";
  out.push_back(exp);
  PerfSpec atomic = memory_figure("tegula.perf.atomic_add.contended", "f32 atomic adds, every block into the same 1024 elements",
                                  "kernel perf_atomic_add(X: f32[N], Y: f32[1024]) grid(ceildiv(N, 1024)) threads(256) {\n"
                                  "  alloc t: fragment f32[1024]\n  copy X[bx * 1024], t\n  atomic_add t, Y[0]\n}\n",
                                  {{"N", n_elems / 4}}, 4.0 * double(n_elems / 4));
  atomic.bound = PerfBound::Rate;
  atomic.items = double(n_elems / 4);
  atomic.item_unit = "G atomic adds/s";
  out.push_back(atomic);

  const std::string tiny = "kernel perf_launch(X: f32[32], Y: f32[32]) grid(1) threads(32) {\n"
                           "  alloc t: fragment f32[32]\n  copy X[0], t\n  copy t, Y[0]\n}\n";
  PerfSpec launch = memory_figure("tegula.perf.launch", "host time per launch of a one-block kernel, back to back", tiny, {}, 256);
  launch.kind = PerfKind::Launch;
  launch.bound = PerfBound::Time;
  out.push_back(launch);
  PerfSpec compile = launch;
  compile.name = "tegula.perf.compile.copy";
  compile.what = "a cold compile and first launch of a one-block copy (the compile cache is off)";
  compile.kind = PerfKind::Compile;
  out.push_back(compile);
}

bool is_int(DType d) { return dtype_is_int(d); }

/// A tunable gemm with `m` forced (the ranking picks the schedule), C in the accumulator dtype.
std::string gemm_kernel(const MatrixInstruction& m, DType a, DType b, DType acc) {
  bool narrow = dtype_size(a) == 1;
  std::string bk = narrow ? "[64, 128]" : dtype_size(a) == 8 ? "[16, 32]" : "[32, 64]";
  std::string regs = dtype_size(acc) == 8 ? "64" : "128";
  std::string s = "kernel perf_gemm(A: " + std::string(dt(a)) + "[M, K], B: " + dt(b) + "[N, K], C: " + dt(acc) + "[M, N])\n";
  s += "    tune(BM in [64, 128, 256], BN in [64, 128, 256], BK in " + bk + ", S in [2, 3, 4], T in [128, 256])\n";
  s += "    where(BM * BN <= T * " + regs + ", BM * BN >= T * 8)\n";
  s += "    grid(ceildiv(N, BN), ceildiv(M, BM)) threads(T) {\n";
  s += "  alloc As: shared " + std::string(dt(a)) + "[BM, BK]\n  alloc Bs: shared " + dt(b) + "[BN, BK]\n";
  s += "  alloc Acc: fragment " + std::string(dt(acc)) + "[BM, BN]\n";
  s += std::string("  fill Acc, ") + (is_int(acc) ? "0" : "0.0") + "\n";
  s += "  pipelined k in 0 .. ceildiv(K, BK), stages=S {\n    copy A[by * BM, k * BK], As\n    copy B[bx * BN, k * BK], Bs\n";
  // The fallback is forced by its kind's name, as GemmCases does (inst=fma).
  s += "    gemm As, Bs, Acc, accumulate=true, trans_b=true, inst=\"" + (m.kind == InstructionKind::Fma ? std::string("fma") : m.id) +
       "\"\n  }\n";
  s += "  copy Acc, C[by * BM, bx * BN]\n}\n";
  return s;
}

/// One figure per catalogue entry the description claims (its required features present),
/// with the entry's first dtypes (the fma fallback: f32).
void add_gemms(std::vector<PerfSpec>& out, const TargetDescription& t, bool large) {
  for (const MatrixInstruction& m : t.matrix_instructions) {
    bool fma = m.kind == InstructionKind::Fma;
    DType a = fma ? DType::F32 : m.a_types.front(), b = fma ? DType::F32 : m.b_types.front();
    DType acc = fma ? DType::F32 : m.c_types.front();
    int64_t size = !large ? (fma ? 256 : 512) : (fma || dtype_size(a) == 8 ? 2048 : 4096);
    PerfSpec s;
    s.name = "tegula.perf.gemm." + m.id;
    s.what = std::string(dt(a)) + " x " + dt(b) + " -> " + dt(acc) + " gemm " + n(size) + "^3 on " + m.id +
             " (the ranking's first schedule)";
    s.kernel = gemm_kernel(m, a, b, acc);
    s.symbols = {{"M", size}, {"K", size}, {"N", size}};
    s.bound = PerfBound::Compute;
    s.instruction = m.id;
    s.dtype = a;
    s.flops = 2.0 * double(size) * double(size) * double(size);
    s.bytes = double(size) * double(size) * (double(dtype_size(a)) + double(dtype_size(b)) + double(dtype_size(acc)));
    for (Feature f : m.required_features)
      if (!t.has_feature(f)) s.unsupported = std::string("the description lacks feature ") + feature_name(f);
    out.push_back(std::move(s));
  }
}

struct Example {
  const char* file;
  PerfBound bound;
  DType dtype;
  std::vector<std::pair<std::string, int64_t>> large, small;
  std::vector<double> scalars;
  double (*bytes)(const std::vector<std::pair<std::string, int64_t>>&);
  double (*flops)(const std::vector<std::pair<std::string, int64_t>>&);
};

double at(const std::vector<std::pair<std::string, int64_t>>& s, const char* name) {
  for (const auto& [k, v] : s)
    if (k == name) return double(v);
  return 0;
}

double no_flops(const std::vector<std::pair<std::string, int64_t>>&) { return 0; }

const std::vector<Example>& examples() {
  using S = std::vector<std::pair<std::string, int64_t>>;
  static const std::vector<Example> list = {
      {"gemm/gemm_bf16", PerfBound::Compute, DType::BF16, {{"M", 4096}, {"K", 4096}, {"N", 4096}}, {{"M", 512}, {"K", 512}, {"N", 512}}, {},
       [](const S& s) { return 2 * (at(s, "M") * at(s, "K") + at(s, "K") * at(s, "N") + at(s, "M") * at(s, "N")); },
       [](const S& s) { return 2 * at(s, "M") * at(s, "N") * at(s, "K"); }},
      {"gemm/gemm_f16", PerfBound::Compute, DType::F16, {{"M", 4096}, {"K", 4096}, {"N", 4096}}, {{"M", 512}, {"K", 512}, {"N", 512}}, {},
       [](const S& s) { return 2 * (at(s, "M") * at(s, "K") + at(s, "K") * at(s, "N") + at(s, "M") * at(s, "N")); },
       [](const S& s) { return 2 * at(s, "M") * at(s, "N") * at(s, "K"); }},
      {"softmax/softmax_rows", PerfBound::Memory, DType::F16, {{"M", 8192}, {"N", 16384}}, {{"M", 256}, {"N", 4096}}, {},
       [](const S& s) { return 4 * at(s, "M") * at(s, "N"); }, no_flops},
      {"reduce/row_sum", PerfBound::Memory, DType::F16, {{"M", 8192}, {"N", 16384}}, {{"M", 256}, {"N", 4096}}, {},
       [](const S& s) { return 2 * at(s, "M") * at(s, "N") + 4 * at(s, "M"); }, no_flops},
      {"elementwise/silu_mul", PerfBound::Memory, DType::BF16, {{"N", int64_t(1) << 27}}, {{"N", int64_t(1) << 21}}, {},
       [](const S& s) { return 6 * at(s, "N"); }, no_flops},
      {"norm/rmsnorm", PerfBound::Memory, DType::F16, {{"M", 8192}, {"N", 8192}}, {{"M", 512}, {"N", 4096}}, {},
       [](const S& s) { return 4 * at(s, "M") * at(s, "N") + 2 * at(s, "N"); }, no_flops},
      {"norm/layernorm", PerfBound::Memory, DType::F16, {{"M", 8192}, {"N", 8192}}, {{"M", 512}, {"N", 4096}}, {},
       [](const S& s) { return 4 * at(s, "M") * at(s, "N") + 4 * at(s, "N"); }, no_flops},
      {"norm/rmsnorm_residual", PerfBound::Memory, DType::F16, {{"M", 8192}, {"N", 8192}}, {{"M", 512}, {"N", 4096}}, {},
       [](const S& s) { return 8 * at(s, "M") * at(s, "N") + 2 * at(s, "N"); }, no_flops},
      {"norm/layernorm_residual", PerfBound::Memory, DType::F16, {{"M", 8192}, {"N", 8192}}, {{"M", 512}, {"N", 4096}}, {},
       [](const S& s) { return 8 * at(s, "M") * at(s, "N") + 4 * at(s, "N"); }, no_flops},
      {"quant/gemv_int4", PerfBound::Memory, DType::F16, {{"M", 1}, {"K", 8192}, {"N", 8192}, {"KW", 1024}, {"G", 64}},
       {{"M", 1}, {"K", 2048}, {"N", 2048}, {"KW", 256}, {"G", 16}}, {},
       [](const S& s) { return at(s, "N") * at(s, "K") / 2 + 2 * at(s, "G") * at(s, "N") + 2 * at(s, "M") * (at(s, "K") + at(s, "N")); },
       [](const S& s) { return 2 * at(s, "M") * at(s, "N") * at(s, "K"); }},
      {"quant/gemm_fp8", PerfBound::Compute, DType::E4M3, {{"M", 4096}, {"K", 4096}, {"N", 4096}}, {{"M", 256}, {"K", 256}, {"N", 256}},
       {0, 0, 0, 1.0, 1.0},
       [](const S& s) { return at(s, "M") * at(s, "K") + at(s, "K") * at(s, "N") + 2 * at(s, "M") * at(s, "N"); },
       [](const S& s) { return 2 * at(s, "M") * at(s, "N") * at(s, "K"); }},
      {"attention/flash_attn_d128", PerfBound::Compute, DType::BF16, {{"B", 8}, {"H", 16}, {"S", 4096}}, {{"B", 1}, {"H", 2}, {"S", 256}},
       {0, 0, 0, 0, 0, 0.0884},
       [](const S& s) { return 2 * 4 * at(s, "B") * at(s, "H") * at(s, "S") * 128 + 4 * at(s, "B") * at(s, "H") * at(s, "S"); },
       [](const S& s) { return 4 * at(s, "B") * at(s, "H") * at(s, "S") * at(s, "S") * 128; }},
      {"attention/flash_attn_d64", PerfBound::Compute, DType::BF16, {{"B", 16}, {"H", 16}, {"S", 2048}}, {{"B", 1}, {"H", 2}, {"S", 256}},
       {0, 0, 0, 0, 0, 0.125},
       [](const S& s) { return 2 * 4 * at(s, "B") * at(s, "H") * at(s, "S") * 64 + 4 * at(s, "B") * at(s, "H") * at(s, "S"); },
       [](const S& s) { return 4 * at(s, "B") * at(s, "H") * at(s, "S") * at(s, "S") * 64; }},
      {"mla/mla_decode", PerfBound::Memory, DType::BF16, {{"B", 64}, {"H", 128}, {"L", 4096}}, {{"B", 2}, {"H", 64}, {"L", 256}},
       {0, 0, 0, 0, 0.0417},
       [](const S& s) { return 2 * at(s, "B") * at(s, "L") * 576 + 2 * at(s, "B") * at(s, "H") * (576 + 512) + 4 * at(s, "B") * at(s, "H"); },
       [](const S& s) { return 2 * at(s, "B") * at(s, "H") * at(s, "L") * (576 + 512); }},
  };
  return list;
}

void add_examples(std::vector<PerfSpec>& out, bool large) {
  for (const Example& e : examples()) {
    PerfSpec s;
    std::string file = e.file;
    s.name = "tegula.perf.example." + file.substr(file.find('/') + 1);
    s.kernel = workload_kernel(file);
    s.symbols = large ? e.large : e.small;
    std::string shape;
    for (const auto& [k, v] : s.symbols) shape += (shape.empty() ? "" : ",") + k + "=" + n(v);
    s.what = "examples/" + file + ".tile at " + shape;
    s.scalars = e.scalars;
    s.bound = e.bound;
    s.dtype = e.dtype;
    s.bytes = e.bytes(s.symbols);
    s.flops = e.flops(s.symbols);
    out.push_back(std::move(s));
  }
}

}  // namespace

std::vector<PerfSpec> select_figures(std::vector<PerfSpec> specs, const std::string& filter) {
  Filter f(filter);
  std::vector<PerfSpec> out;
  for (PerfSpec& s : specs)
    if (f.matches(s.name)) out.push_back(std::move(s));
  return out;
}

Result<ir::Kernel> parse_perf_kernel(const PerfSpec& spec) { return ir::parse_first_instance(spec.kernel, spec.name, /*verify=*/true); }

/// Which unit moves the copies of a figure's pipelined loop on `target`, as the lowering
/// decides it for the launch (each symbol's power-of-two divisibility up to 16, tensors
/// aligned, as the runtime specialises): "" when the kernel has no pipelined copy.
std::string copy_engine(const PerfSpec& spec, const TargetDescription& target) {
  Result<ir::Kernel> k = parse_perf_kernel(spec);
  if (!k.is_ok()) return "";
  ir::LowerOptions o;
  for (const auto& [symbol, value] : spec.symbols) {
    int64_t d = 1;
    while (d < 16 && value % (2 * d) == 0) d *= 2;
    o.divisibility[symbol] = d;
  }
  o.tensors_aligned = true;
  Result<ir::LowerResult> lowered = ir::lower(*k, target, o);
  if (!lowered.is_ok()) return "";
  std::string engines;
  ir::for_each_stmt(lowered->kernel.body, [&](const ir::Stmt& s) {
    if (s.op != ir::OpKind::Pipelined) return;
    for (const ir::Stmt& c : s.body().stmts) {
      if (c.op != ir::OpKind::Copy) continue;
      Result<ir::CopyPlan> p = ir::get_copy_plan(c);
      if (!p.is_ok() || !p->async) continue;
      const char* name = p->engine == ir::CopyEngine::Bulk        ? "the bulk tensor copy engine (TMA)"
                         : p->engine == ir::CopyEngine::Async     ? "cp.async"
                         : p->engine == ir::CopyEngine::Registers ? "registers, one iteration ahead"
                                                                  : "the threads, issued ahead";
      if (engines.find(name) == std::string::npos) engines += std::string(engines.empty() ? "" : " and ") + name;
    }
  });
  return engines.empty() ? "no copy issued ahead (the loop runs as a plain loop)" : engines;
}

std::vector<PerfSpec> build_perf_suite(const TargetDescription& target, bool large) {
  std::vector<PerfSpec> out;
  add_primitives(out, large);
  add_gemms(out, target, large);
  add_examples(out, large);
  for (PerfSpec& s : out) {
    if (s.kernel.empty()) s.unsupported = "the kernel is not compiled into this build";
    if (!s.unsupported.empty()) continue;
    s.unsupported = refusal(s, target);
  }
  // The pipelined copy names the engine the lowering took on this target.
  for (PerfSpec& s : out)
    if (s.name == "tegula.perf.copy.pipelined" && s.unsupported.empty())
      if (std::string engine = copy_engine(s, target); !engine.empty()) s.what += "; on " + target.name + ": " + engine;
  return out;
}

}  // namespace tegula::conformance
