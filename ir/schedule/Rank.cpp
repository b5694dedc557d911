// The cost model of ir/schedule/Rank.h. Every number here is either read from the target
// description or a named default below, reported in Ranking::model_notes when used, so a
// ranking can always be explained from its inputs.
#include "ir/schedule/Rank.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ir/IntFold.h"
#include "ir/Parser.h"
#include "ir/lower/GemmPlan.h"

namespace tegula::ir {
namespace {

// Defaults for what descriptions do not state (each noted in model_notes when used).
constexpr double kDefaultClockHz = 1.5e9;        // no peak rate to derive the clock from
constexpr double kDefaultMemoryGBps = 100;       // no peak.memory_gbps (a host CPU's order)
constexpr double kL2OverDram = 2.5;              // L2 bandwidth over DRAM bandwidth (H100/H200: ~2.5x)
constexpr double kMemoryLatencyUs = 1.2;         // a tensor load's latency under load (H200, calibrated: bench/results)
constexpr double kFmaLanesPerCu = 128;           // FP32 FMA lanes per compute unit (NVIDIA SM, AMD CU x2)
constexpr int64_t kThreadsPerCu = 2048;          // resident threads per CU (NVIDIA since Volta, AMD CDNA)
constexpr int64_t kMaxBlocksPerCu = 32;
constexpr int64_t kBaseRegisters = 32;           // addresses, loop state, the epilogue's temporaries
constexpr double kSpillPenalty = 1.5;            // compute slowdown when registers spill
constexpr double kLaunchUs = 2.0;
// Per trip of the loop that moves the data: the barrier and the wait for the stage, which
// the pipeline does not hide (a few hundred cycles on NVIDIA and AMD parts).
constexpr double kCyclesPerIteration = 64;
// Matrix units reach their rate when two or more groups issue on a compute unit (one
// computes while the other waits on its operands or runs its epilogue); one group alone
// keeps them this busy.
constexpr double kOneGroupEfficiency = 0.85;
// Vector lanes a CU's load/store pipe issues per cycle (one warp instruction of 32 lanes on
// NVIDIA; an AMD CU's 64-lane wave takes two).
constexpr double kLsuLanesPerCycle = 32;
// Cycles a thread spends per vector of a synchronous copy: its address, the tail guard, the
// global load and the shared store, issued in order (the store waits on its load). Fitted to
// the H200, 1000 x 1000 x 999 bf16, where the A copy is synchronous: 256 threads beat 128 by
// 0.42 us per trip at 128 x 128 (32 vectors per thread fewer) and by 0.16 us at 64 x 256 (16
// fewer), 20 to 26 cycles per vector (bench/results/h200-2026-12-02-s5.md, call 2).
constexpr double kSyncCyclesPerVector = 24;

std::optional<int64_t> eval_shape(const Expr& e, const std::map<std::string, int64_t>& shape) {
  if (!e) return std::nullopt;
  switch (e->kind) {
    case ExprKind::IntImm: return e->int_value;
    case ExprKind::Var: {
      auto it = shape.find(e->name);
      if (it == shape.end()) return std::nullopt;
      return it->second;
    }
    case ExprKind::Unary: {
      if (e->unary != UnaryOp::Neg) return std::nullopt;
      auto x = eval_shape(e->args[0], shape);
      return x ? fold_int_neg(*x) : std::nullopt;
    }
    case ExprKind::Binary: {
      auto a = eval_shape(e->args[0], shape), b = eval_shape(e->args[1], shape);
      if (!a || !b) return std::nullopt;
      return fold_int_binary(e->binary, *a, *b);
    }
    default: return std::nullopt;
  }
}

/// One tensor a block reads or writes by copies: its bytes per block, which block indices
/// its offsets name (blocks that agree on those read the same tiles, which L2 then holds),
/// and the tensor's size.
struct Stream {
  std::string tensor;
  bool reads = true;
  double bytes_per_block = 0;
  bool uses[3] = {false, false, false};  // bx, by, bz
};

/// Whether `e` names the block index `name`.
bool names_var(const Expr& e, const char* name) {
  if (!e) return false;
  if (e->kind == ExprKind::Var && e->name == name) return true;
  for (const Expr& a : e->args)
    if (names_var(a, name)) return true;
  return false;
}

/// Per-block work, summed over the body with each statement weighted by its loops' trips.
struct BlockWork {
  std::vector<Stream> streams;
  double flops = 0;
  double bytes = 0;           // between tensors and the block
  double bytes_per_iter = 0;  // of the innermost loop that moves tensor data (max over loops)
  int64_t stages = 1;         // of the pipelined loop that moves the most data per trip
  double iterations = 0;      // trips of that loop, in all
  int64_t group_threads = 0;  // of the gemms' instruction (0: none)
  int64_t buffered_stages = 1;  // the most copies lowering gave a shared buffer (layout.stages)
  std::string instruction;
  // Loads that lowering left synchronous (plan.async unset: no copy engine, no asynchronous
  // copy unit, e.g. rows not 16-byte aligned): their vector instructions per trip of the
  // data loop, summed over the loop's copies; each such trip waits a full load latency.
  double sync_vectors_per_iter = 0;
  std::string error;
};

struct Walker {
  const Kernel& k;
  const std::map<std::string, int64_t>& shape;
  std::map<std::string, BufferType> allocs;
  BlockWork w;
  bool in_loop = false;
  double sync_vectors = 0;  // vector loads of synchronous copies so far, weighted by trips

  bool is_tensor(const std::string& name) const {
    const Param* p = k.find_param(name);
    return p && p->is_tensor;
  }

  /// The bytes a copy moves between `tensor` and the on-chip tile: the tile's extent, each
  /// trailing axis clipped to the tensor's (rows past a small M are masked, not moved).
  double tile_bytes(const TileRef& on_chip, const std::string& tensor, const Stmt& s) const {
    std::vector<int64_t> extent = stmt_attr_ints(s, "extent");
    auto it = allocs.find(on_chip.buffer);
    if (it == allocs.end()) return 0;
    if (extent.empty()) extent = it->second.shape;
    const Param* p = k.find_param(tensor);
    double n = 1;
    for (size_t i = 0; i < extent.size(); ++i) {
      double e = double(extent[i]);
      size_t from_end = extent.size() - i;
      if (p && from_end <= p->shape.size()) {
        std::optional<int64_t> dim = eval_shape(p->shape[p->shape.size() - from_end], shape);
        if (dim) e = std::min(e, double(std::max<int64_t>(*dim, 0)));
      }
      n *= e;
    }
    return n * double(dtype_size(it->second.dtype));
  }

  double tensor_traffic(const Stmt& s) const {
    bool src = is_tensor(s.tiles[0].buffer), dst = is_tensor(s.tiles[1].buffer);
    if (src && !dst) return tile_bytes(s.tiles[1], s.tiles[0].buffer, s);
    if (dst && !src) return tile_bytes(s.tiles[0], s.tiles[1].buffer, s);
    return 0;
  }

  void add_stream(const Stmt& s, double bytes) {
    bool reads = is_tensor(s.tiles[0].buffer);
    const TileRef& side = reads ? s.tiles[0] : s.tiles[1];
    Stream st;
    st.tensor = side.buffer;
    st.reads = reads;
    for (int i = 0; i < 3; ++i)
      for (const Expr& o : side.offsets) st.uses[i] = st.uses[i] || names_var(o, kBlockIndexNames[i]);
    for (Stream& x : w.streams) {
      if (x.tensor == st.tensor && x.reads == st.reads && std::equal(x.uses, x.uses + 3, st.uses)) {
        x.bytes_per_block += bytes;
        return;
      }
    }
    st.bytes_per_block = bytes;
    w.streams.push_back(st);
  }

  int64_t trips(const Stmt& s) {
    auto lo = eval_shape(s.lo(), shape), hi = eval_shape(s.hi(), shape);
    if (!lo || !hi) return 1;  // bounds that read loop variables or tensors: counted once
    return std::max<int64_t>(0, *hi - *lo);
  }

  /// The bytes one pass over `b` moves (not counting nested loops' trips).
  double walk(const Block& b, double weight) {
    double moved = 0;
    for (const Stmt& s : b.stmts) moved += walk_stmt(s, weight);
    return moved;
  }

  double walk_stmt(const Stmt& s, double weight) {
    switch (s.op) {
      case OpKind::Alloc: {
        allocs[s.name] = s.type;
        if (const Attr* a = find_attr(s.attrs, "layout.stages"); a && a->value.kind == AttrValue::Kind::Int)
          w.buffered_stages = std::max(w.buffered_stages, a->value.i);
        return 0;
      }
      case OpKind::Copy:
      case OpKind::AtomicAdd: {
        double bytes = tensor_traffic(s);
        w.bytes += bytes * weight;
        if (bytes > 0) add_stream(s, bytes * weight);
        if (bytes > 0 && s.op == OpKind::Copy && is_tensor(s.tiles[0].buffer) && in_loop &&
            !find_attr(s.attrs, "plan.async")) {
          const Attr* vec = find_attr(s.attrs, "plan.vec");
          int64_t lanes = vec && vec->value.kind == AttrValue::Kind::Int ? std::max<int64_t>(1, vec->value.i) : 1;
          auto it = allocs.find(s.tiles[1].buffer);
          int64_t size = it == allocs.end() ? 1 : std::max<int64_t>(1, dtype_size(it->second.dtype));
          sync_vectors += bytes / double(size * lanes) * weight;
        }
        return bytes;
      }
      case OpKind::Gemm: {
        Result<GemmPlan> plan = get_gemm_plan(s);
        if (!plan.is_ok()) {
          w.error = plan.status().message();
          return 0;
        }
        w.flops += 2.0 * double(plan->Mp) * double(plan->Np) * double(plan->Kp) * weight;
        if (w.instruction.empty() || w.instruction == "fma") {
          w.instruction = plan->inst;
          w.group_threads = plan->group_threads;
        }
        return 0;
      }
      case OpKind::For:
      case OpKind::Pipelined: {
        int64_t n = trips(s);
        bool was_in_loop = in_loop;
        double vectors_before = sync_vectors;
        in_loop = true;
        double per_iter = walk(s.body(), weight * double(n));
        in_loop = was_in_loop;
        if (per_iter > w.bytes_per_iter) {
          w.sync_vectors_per_iter = n > 0 ? (sync_vectors - vectors_before) / (weight * double(n)) : 0;
          w.bytes_per_iter = per_iter;
          w.stages = s.op == OpKind::Pipelined ? std::max<int64_t>(1, stmt_attr_int(s, "stages")) : 1;
          w.iterations = weight * double(n);
        }
        return per_iter * double(n);
      }
      case OpKind::If: {
        double moved = walk(s.blocks[0], weight);  // as if taken: an upper bound
        return moved;
      }
      case OpKind::Parallel:
      case OpKind::Fill:
      case OpKind::Reduce:
      case OpKind::Scan:
      case OpKind::Map:
      case OpKind::Store:
      case OpKind::Barrier: return 0;
    }
    return 0;
  }
};

int64_t estimate_registers(const Kernel& k) {
  int64_t words = 0;
  std::vector<const Block*> todo{&k.body};
  while (!todo.empty()) {
    const Block* b = todo.back();
    todo.pop_back();
    for (const Stmt& s : b->stmts) {
      if (s.op == OpKind::Alloc && s.type.scope == Scope::Fragment) {
        int64_t bytes = s.type.elements() * int64_t(dtype_size(s.type.dtype));
        words += (bytes + 4 * k.threads - 1) / (4 * k.threads);
      }
      for (const Block& inner : s.blocks) todo.push_back(&inner);
    }
  }
  return kBaseRegisters + words;
}

/// The rates the model uses for `target`, with the defaults it had to assume.
struct Rates {
  int64_t cus = 1;
  double clock_hz = kDefaultClockHz;
  double dram_bps = kDefaultMemoryGBps * 1e9;
  std::string notes;
};

Rates target_rates(const TargetDescription& t) {
  Rates r;
  if (t.compute_units) r.cus = *t.compute_units;
  else r.notes += "compute_units not described: 1 assumed; ";
  if (t.peak.memory_gbps) r.dram_bps = *t.peak.memory_gbps * 1e9;
  else r.notes += "no peak.memory_gbps: " + std::to_string(int(kDefaultMemoryGBps)) + " GB/s assumed; ";
  // The clock from the best dense rate: peak = rate x CUs x clock.
  for (const auto& [dtype, tflops] : t.peak.tflops) {
    double best = 0;
    for (const MatrixInstruction& m : t.matrix_instructions)
      if (std::find(m.a_types.begin(), m.a_types.end(), dtype) != m.a_types.end()) best = std::max(best, m.rate);
    if (best > 0) {
      r.clock_hz = tflops * 1e12 / (best * double(r.cus));
      return r;
    }
  }
  r.notes += "no peak rate for a catalogued instruction: a " + std::to_string(kDefaultClockHz / 1e9).substr(0, 3) +
             " GHz clock assumed; ";
  return r;
}

double cu_flops(const TargetDescription& t, const Rates& r, const std::string& inst) {
  const MatrixInstruction* m = inst.empty() || inst == "fma" ? nullptr : t.find_instruction(inst);
  if (!m || m->rate <= 0) return 2 * kFmaLanesPerCu * r.clock_hz;
  return m->rate * r.clock_hz;
}

struct Occupancy {
  int64_t resident = 0;
  std::string limit;
};

Occupancy occupancy(const TargetDescription& t, int64_t threads, int64_t shared, int64_t registers) {
  int64_t per_cu_threads = t.vendor == "nvidia" || t.vendor == "amd" ? kThreadsPerCu : t.max_threads_per_block;
  std::vector<std::pair<int64_t, const char*>> limits = {{per_cu_threads / std::max<int64_t>(1, threads), "threads"},
                                                         {kMaxBlocksPerCu, "blocks"}};
  if (shared > 0) limits.push_back({t.shared_memory_per_block / shared, "shared memory"});
  int64_t regs_cu = t.registers_per_block.value_or(65536);
  int64_t per_thread = (std::min<int64_t>(registers, t.registers_per_thread.value_or(255)) + 7) / 8 * 8;
  limits.push_back({regs_cu / std::max<int64_t>(1, per_thread * threads), "registers"});
  Occupancy o{INT64_MAX, ""};
  for (const auto& [n, why] : limits)
    if (n < o.resident) o = {n, why};
  return o;
}

/// Time of one wave in which each busy CU holds `nb` blocks of `threads` threads.
double wave_us(double nb, const BlockWork& w, double flops_cu, double l2_cu_bps, double spill, int64_t threads,
               double clock_hz) {
  double groups = w.group_threads > 0 ? nb * double(threads) / double(w.group_threads) : 2;
  double efficiency = groups >= 2 ? 1.0 : kOneGroupEfficiency;
  double trips = w.iterations * kCyclesPerIteration / clock_hz;
  double compute = nb * w.flops / flops_cu * spill / efficiency;
  // A pipeline hides a load's latency behind the S - 1 iterations issued ahead of it; what
  // those iterations' compute does not cover waits, on every trip.
  if (w.iterations > 0 && w.flops > 0) {
    double per_iter = (compute + trips) / w.iterations;
    double hidden = double(std::max<int64_t>(1, w.stages - 1)) * per_iter;
    compute += w.iterations * std::max(0.0, kMemoryLatencyUs * 1e-6 - hidden);
  }
  // A copy lowering left synchronous inside a pipeline waits for its own loads on every trip,
  // which no stage hides. Its vectors cost issue time twice over: each thread steps through
  // its share one after the other (fewer threads, longer turns), and the CU's load/store pipe
  // takes a load and a shared store per vector for all resident blocks; the slower one sets
  // the trip. (A loop without a pipeline is priced by the overlap rule below.)
  if (w.sync_vectors_per_iter > 0 && w.stages >= 2) {
    double per_thread = w.sync_vectors_per_iter / double(std::max<int64_t>(1, threads)) * kSyncCyclesPerVector;
    double pipe = nb * 2 * w.sync_vectors_per_iter / kLsuLanesPerCycle;
    compute += w.iterations * (kMemoryLatencyUs * 1e-6 + std::max(per_thread, pipe) / clock_hz);
  }
  double inflight = nb * double(std::max<int64_t>(1, w.stages - 1)) * std::max(w.bytes_per_iter, 1.0);
  double bw = std::min(l2_cu_bps, inflight / (kMemoryLatencyUs * 1e-6));
  double memory = nb * w.bytes / bw;
  // The trips' own cost (the barrier and the wait for a stage) comes on top of whichever of
  // compute and memory sets the pace: a memory-bound loop still stops at every trip.
  double overlapped = std::max(compute, memory) + trips;
  // Without a pipeline a block waits for its loads; only other resident blocks fill the gap.
  if (w.stages < 2) overlapped += std::min(compute, memory) / nb;
  return overlapped * 1e6;
}

double tensor_bytes(const Kernel& k, const std::string& name, const std::map<std::string, int64_t>& shape) {
  const Param* p = k.find_param(name);
  if (!p) return 0;
  double n = double(dtype_size(p->dtype));
  for (const Expr& d : p->shape) n *= double(eval_shape(d, shape).value_or(1));
  return n;
}

/// Distinct block rows and columns (and blocks) among launch positions [first, first + n) of a
/// gx x gy grid whose blocks run in groups of `group` rows (lower.raster; 1 is launch order,
/// bx fastest): inside a group of `size` rows the position i runs row i mod size, column
/// i / size (Rasterize.cpp). Columns are summed over the groups the positions span, an upper
/// bound when a window spans two groups.
struct WindowTiles {
  double rows = 0, cols = 0, blocks = 0;
};

WindowTiles window_tiles(int64_t first, int64_t n, int64_t gx, int64_t gy, int64_t group) {
  WindowTiles w;
  w.blocks = double(n);
  const int64_t per_group = group * gx;
  for (int64_t at = first, end = first + n; at < end;) {
    int64_t g = at / per_group;
    int64_t size = std::min(gy - g * group, group);
    int64_t a = at - g * per_group, b = std::min(end - g * per_group, size * gx);
    w.rows += double(std::min(size, b - a));
    w.cols += double((b - 1) / size - a / size + 1);
    at = g * per_group + b;
  }
  return w;
}

/// The bytes that cross the DRAM interface: per wave (CUs x resident blocks, in launch order,
/// rasterised when lowering set lower.raster), each read stream once per distinct value of
/// the block indices its offsets name, unless the whole tensor fits in half the L2 (then once
/// in all); writes once. Never less than every tensor once.
double dram_bytes(const Kernel& k, const BlockWork& w, const std::map<std::string, int64_t>& shape,
                  const TargetDescription& t, const CandidateEstimate& e, double per_wave) {
  int64_t g[3] = {1, 1, 1};
  for (size_t i = 0; i < k.grid.size() && i < 3; ++i) g[i] = std::max<int64_t>(1, eval_shape(k.grid[i], shape).value_or(1));
  int64_t group = 1;
  if (const Attr* a = find_attr(k.attrs, "lower.raster"); a && a->value.kind == AttrValue::Kind::Int && k.grid.size() == 2)
    group = std::max<int64_t>(1, a->value.i);
  // In launch order the rows of every z slice follow one another, so a 3-D grid is a 2-D
  // one of gy x gz rows (rasterisation applies to 2-D grids only).
  const int64_t gx = g[0], gy = g[1] * g[2];
  double l2 = double(t.l2_bytes.value_or(0));
  double total = 0, footprint = 0;
  for (const Param& p : k.params)
    if (p.is_tensor) footprint += tensor_bytes(k, p.name, shape);
  const int64_t window = std::max<int64_t>(1, int64_t(per_wave));
  for (const Stream& st : w.streams) {
    double whole = tensor_bytes(k, st.tensor, shape);
    if (!st.reads || whole <= l2 / 2) {
      total += st.reads ? whole : st.bytes_per_block * double(e.blocks);
      continue;
    }
    for (int64_t first = 0; first < e.blocks; first += window) {
      WindowTiles wt = window_tiles(first, std::min(window, e.blocks - first), gx, gy, group);
      double tiles = 1;
      if (st.uses[0] && (st.uses[1] || st.uses[2])) tiles = wt.blocks;
      else if (st.uses[0]) tiles = wt.cols;
      else if (st.uses[1] || st.uses[2]) tiles = wt.rows;
      total += tiles * st.bytes_per_block;
    }
  }
  return std::max(total, footprint);
}

CandidateEstimate estimate(const Kernel& lowered, const TargetDescription& t, const Rates& r,
                           const std::map<std::string, int64_t>& shape, std::string* error) {
  CandidateEstimate e;
  e.threads = lowered.threads;
  if (const Attr* a = find_attr(lowered.attrs, "lower.shared_bytes")) e.shared_bytes = a->value.i;
  e.registers = estimate_registers(lowered);
  e.blocks = 1;
  for (const Expr& g : lowered.grid) {
    auto n = eval_shape(g, shape);
    if (!n) {
      *error = "the grid does not evaluate at this shape";
      return e;
    }
    e.blocks *= std::max<int64_t>(0, *n);
  }
  Walker walker{lowered, shape, {}, {}};
  walker.walk(lowered.body, 1.0);
  if (!walker.w.error.empty()) {
    *error = walker.w.error;
    return e;
  }
  BlockWork& w = walker.w;
  // A block without a loop over its data issues all its loads at once.
  if (w.bytes_per_iter == 0) {
    w.bytes_per_iter = w.bytes;
    w.iterations = 1;
    w.stages = 2;
  } else if (w.stages >= 2) {
    // What lowering kept of the pipeline: as many stages as it gave the shared buffers (it
    // drops stages that do not fit, and registers stage on some targets).
    w.stages = std::min(w.stages, std::max<int64_t>(w.buffered_stages, 2));
  }
  e.instruction = w.instruction.empty() ? "none" : w.instruction;
  Occupancy o = occupancy(t, e.threads, e.shared_bytes, e.registers);
  if (o.resident < 1) {
    *error = "one block does not fit on a compute unit (" + o.limit + ")";
    return e;
  }
  e.resident = o.resident;
  e.resident_limit = o.limit;
  e.flops = w.flops * double(e.blocks);
  e.bytes = w.bytes * double(e.blocks);
  double per_wave = double(r.cus) * double(e.resident);
  e.waves = e.blocks == 0 ? 0 : int64_t(std::ceil(double(e.blocks) / per_wave));
  e.wave_efficiency = e.waves == 0 ? 1 : double(e.blocks) / (double(e.waves) * per_wave);
  double flops_cu = cu_flops(t, r, w.instruction);
  double l2_cu = kL2OverDram * r.dram_bps / double(r.cus);
  double spill = e.registers > t.registers_per_thread.value_or(255) ? kSpillPenalty : 1.0;
  double full = wave_us(double(e.resident), w, flops_cu, l2_cu, spill, e.threads, r.clock_hz);
  double last_blocks = double(e.blocks) - double(e.waves - 1) * per_wave;
  double last = e.waves == 0 ? 0 : wave_us(std::ceil(last_blocks / double(r.cus)), w, flops_cu, l2_cu, spill, e.threads, r.clock_hz);
  double waves_us = e.waves == 0 ? 0 : double(e.waves - 1) * full + last;
  e.compute_us = e.flops / (flops_cu * double(r.cus)) * 1e6 * spill;
  e.memory_us = e.bytes / (l2_cu * double(r.cus)) * 1e6;
  e.dram_bytes = dram_bytes(lowered, w, shape, t, e, per_wave);
  e.dram_us = e.dram_bytes / r.dram_bps * 1e6;
  e.predicted_us = std::max(waves_us, e.dram_us) + kLaunchUs;
  if (e.dram_us >= waves_us) e.limiter = "dram";
  else if (e.compute_us >= e.memory_us && e.compute_us * 1.25 >= waves_us / std::max(e.wave_efficiency, 1e-9)) e.limiter = "compute";
  else if (e.memory_us >= e.compute_us && e.memory_us * 1.25 >= waves_us / std::max(e.wave_efficiency, 1e-9)) e.limiter = "memory";
  else e.limiter = "latency";
  return e;
}

}  // namespace

Result<Ranking> rank_candidates(std::string_view text, const std::string& file, const TargetDescription& target,
                                const RankRequest& request) {
  TG_ASSIGN_OR_RETURN(TuneSpace space, parse_tune_space(text, file));
  if (space.empty()) return error(ErrorCode::InvalidArgument, file + ": the kernel has no tunables to rank");
  std::vector<RejectedBinding> rejected;
  TG_ASSIGN_OR_RETURN(std::vector<Binding> bindings, enumerate_bindings(space, &rejected));
  Ranking out;
  Rates rates = target_rates(target);
  out.model_notes = rates.notes;
  for (RejectedBinding& r : rejected) out.dropped.push_back({std::move(r.binding), false, std::move(r.reason), {}});
  for (const Binding& b : bindings) {
    Candidate c{b, false, "", {}};
    Result<Kernel> k = parse_and_verify(text, file, &b);
    if (!k.is_ok()) {
      c.reason = "verifier: " + k.status().str();
      out.dropped.push_back(std::move(c));
      continue;
    }
    for (const std::string& sym : k->symbols())
      if (!request.shape.count(sym))
        return error(ErrorCode::InvalidArgument, "ranking needs a value for shape symbol " + sym);
    Result<LowerResult> lowered = lower(*k, target, request.lower);
    if (!lowered.is_ok()) {
      c.reason = "lowering: " + lowered.status().message();
      out.dropped.push_back(std::move(c));
      continue;
    }
    std::string why;
    c.estimate = estimate(lowered->kernel, target, rates, request.shape, &why);
    if (!why.empty()) {
      c.reason = "model: " + why;
      out.dropped.push_back(std::move(c));
      continue;
    }
    c.legal = true;
    out.legal.push_back(std::move(c));
  }
  // Equal predictions go to the candidate that reads less from DRAM, then keep space order.
  // The time has no power term, but a power-capped device pays for DRAM traffic in clock:
  // on the H200 (700 W), raster=8 cut the tuned GEMM's DRAM throughput from 55.9% to 16.6%
  // and ran 7% faster sustained at 4096x28672x8192, the same at ncu's locked clock
  // (bench/results/h200-2026-12-04.md). Not std::stable_sort: libstdc++ 12's uses
  // get_temporary_buffer, which clang 19 refuses as deprecated under -Werror (the CI's
  // clang build).
  std::vector<size_t> order(out.legal.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    double pa = out.legal[a].estimate.predicted_us, pb = out.legal[b].estimate.predicted_us;
    if (pa != pb) return pa < pb;
    double da = out.legal[a].estimate.dram_bytes, db = out.legal[b].estimate.dram_bytes;
    return da < db || (da == db && a < b);
  });
  std::vector<Candidate> sorted;
  sorted.reserve(order.size());
  for (size_t i : order) sorted.push_back(std::move(out.legal[i]));
  out.legal = std::move(sorted);
  return out;
}

std::string ranking_table(const Ranking& r, size_t legal_shown, size_t dropped_shown) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%4s  %-36s %10s %8s %9s %7s %6s %5s %6s  %s\n", "rank", "candidate", "predicted", "limiter",
                "DRAM", "blocks", "res/CU", "waves", "wave%", "instruction");
  out += line;
  for (size_t i = 0; i < r.legal.size() && i < legal_shown; ++i) {
    const CandidateEstimate& e = r.legal[i].estimate;
    std::snprintf(line, sizeof line, "%4zu  %-36s %8.1fus %8s %7.0fMB %7lld %6lld %5lld %5.0f%%  %s (%s-limited)\n", i + 1,
                  binding_text(r.legal[i].binding).c_str(), e.predicted_us, e.limiter.c_str(), e.dram_bytes / 1e6, (long long)e.blocks,
                  (long long)e.resident, (long long)e.waves, 100 * e.wave_efficiency, e.instruction.c_str(),
                  e.resident_limit.c_str());
    out += line;
  }
  if (r.legal.size() > legal_shown) out += "      ... " + std::to_string(r.legal.size() - legal_shown) + " more legal\n";
  if (!r.dropped.empty()) out += "dropped " + std::to_string(r.dropped.size()) + ":\n";
  for (size_t i = 0; i < r.dropped.size() && i < dropped_shown; ++i)
    out += "      " + binding_text(r.dropped[i].binding) + ": " + r.dropped[i].reason + "\n";
  if (r.dropped.size() > dropped_shown) out += "      ... " + std::to_string(r.dropped.size() - dropped_shown) + " more dropped\n";
  if (!r.model_notes.empty()) out += "model: " + r.model_notes + "\n";
  return out;
}

}  // namespace tegula::ir
