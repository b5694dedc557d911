// Instruction selection: give every gemm a matrix instruction from the target's catalogue
// and a tiling of its tile over issuing groups, or the FMA fallback.
//
// Candidates are the catalogue entries that accept the gemm's dtypes, best rate per thread
// first. An entry is usable when its issuing group divides the block, it can take each
// operand from where the kernel keeps it (a fragment needs a register form; a shared tile
// needs a register form, which the backend loads, or a shared form whose major order
// matches), K is a multiple of its K, and M and N are multiples of its tile (or can be
// padded: legalize_tiles then pads the buffers). The log says why each entry was taken or
// passed over, so `tegula lower` explains every choice. A gemm that names an instruction
// (inst=ID) gets that one or a clear error.
//
// A workgroup-scope (cta) cooperative matrix is one matrix per block: its group is the
// whole block, the atom is the whole M x N tile (no padding) and the largest K step that
// divides K. It loads A and B itself from the tensors (location `global`), so it is taken
// only where both operands are staged by a plain copy that can be forwarded
// (Forwarding.h), in the variant for tensors that start on 16-byte boundaries (such loads
// need aligned bases), and where the accumulator is only filled, multiplied into, changed by
// f32 maps of + - * over itself and scalars, and copied whole to a tensor.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>

#include "ir/lower/Forwarding.h"
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Passes.h"
#include "targets/MatrixQuery.h"

namespace tegula::ir {
namespace {

struct GemmFacts {
  int64_t M = 0, N = 0, K = 0;
  DType a = DType::F32, b = DType::F32, c = DType::F32;
  Scope a_scope = Scope::Shared, b_scope = Scope::Shared;
  Major a_major = Major::K, b_major = Major::K;
  bool can_pad_m = false, can_pad_n = false;
  std::vector<int64_t> a_shape, b_shape;
  bool c_may_be_opaque = false;  ///< every use of C is one an opaque matrix supports
  bool c_store_only = false;     ///< C is only filled, multiplied into and copied whole to a tensor
  std::string a_unforwardable, b_unforwardable;  ///< why A (B) cannot be loaded from its tensor; "" if it can
  bool tensors_aligned = false;  ///< the variant for tensors on 16-byte boundaries (LowerOptions)
};

/// A shared-memory descriptor reads 8-row x 16-byte core matrices: the contiguous (last)
/// dimension must hold whole 16-byte rows and the other must be a multiple of 8.
bool descriptor_fits(const std::vector<int64_t>& shape, DType t) {
  return shape.size() == 2 && (shape[1] * int64_t(dtype_size(t))) % 16 == 0 && shape[0] % 8 == 0;
}

struct Candidate {
  GemmPlan plan;
  double score = -1;
};

int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/// A buffer may be padded when every use of it is a gemm or a tile op that can carry an
/// explicit extent (copy, fill, atomic_add); maps and reductions see the whole buffer.
bool paddable(const Block& body, const std::string& name) {
  bool ok = true;
  auto whole_use = [&](const Stmt& s) {
    for (const TileRef& t : s.tiles) ok = ok && t.buffer != name;
    std::function<void(const Expr&)> walk = [&](const Expr& e) {
      if (e->kind == ExprKind::Tile && e->name == name) ok = false;
      for (const Expr& a : e->args) walk(a);
    };
    for (const Expr& e : s.exprs) walk(e);
  };
  for_each_stmt(body, [&](const Stmt& s) {
    switch (s.op) {
      case OpKind::Map:
      case OpKind::Reduce:
      case OpKind::Scan: whole_use(s); break;
      case OpKind::Parallel:
        for_each_stmt(s.body(), [&](const Stmt& inner) {
          for (const TileRef& t : inner.tiles) ok = ok && t.buffer != name;
        });
        break;
      // Gemms and the tile ops that carry an extent; the rest name no tile themselves (a
      // store is inside a parallel loop, and nested statements are visited on their own).
      case OpKind::Alloc:
      case OpKind::Copy:
      case OpKind::Fill:
      case OpKind::Gemm:
      case OpKind::Store:
      case OpKind::AtomicAdd:
      case OpKind::Barrier:
      case OpKind::For:
      case OpKind::Pipelined:
      case OpKind::If: break;
    }
  });
  return ok;
}

/// Whether a map's value is arithmetic an opaque matrix can run: + - * / (not for a
/// workgroup matrix), negation and casts (not for a workgroup matrix) over the fragment
/// itself, literals and scalars. A workgroup matrix evaluates it as matrix arithmetic, so
/// there every value must be f32 (it then rounds as the element-wise form does).
bool arithmetic_over(const Expr& e, const std::string& name, bool workgroup) {
  if (workgroup && (e->type.kind != Type::Kind::Float || e->type.dtype != DType::F32)) return false;
  switch (e->kind) {
    case ExprKind::IntImm: return !workgroup;
    case ExprKind::FloatImm:
    case ExprKind::Var: return true;
    case ExprKind::Tile: return e->name == name;
    case ExprKind::Unary: return e->unary == UnaryOp::Neg && arithmetic_over(e->args[0], name, workgroup);
    case ExprKind::Binary:
      if (e->binary != BinaryOp::Add && e->binary != BinaryOp::Sub && e->binary != BinaryOp::Mul &&
          (workgroup || e->binary != BinaryOp::Div))
        return false;
      return arithmetic_over(e->args[0], name, workgroup) && arithmetic_over(e->args[1], name, workgroup);
    case ExprKind::Cast: return !workgroup && arithmetic_over(e->args[0], name, workgroup);
    case ExprKind::Load:
    case ExprKind::Bitcast:
    case ExprKind::Select: return false;
    // An opaque matrix hides which element a thread holds, so nothing can say an element's
    // index there: a map with idx() keeps its accumulator in a described layout.
    case ExprKind::ElemIndex: return false;
  }
  return false;
}

/// Whether a fragment can live as an opaque matrix: it is only filled, used as this
/// gemm's accumulator, copied whole to or from memory, or written by maps of + - * / over
/// itself, literals and scalars.
bool opaque_compatible(const Block& body, const std::string& name, const BufferMap& buffers) {
  bool ok = true;
  std::function<bool(const Expr&)> mentions = [&](const Expr& e) {
    if ((e->kind == ExprKind::Tile || e->kind == ExprKind::Load) && e->name == name) return true;
    for (const Expr& a : e->args)
      if (mentions(a)) return true;
    return false;
  };
  for_each_stmt(body, [&](const Stmt& s) {
    bool touches = false;
    for (const TileRef& t : s.tiles) touches = touches || t.buffer == name;
    for (const Expr& e : s.exprs) touches = touches || mentions(e);
    if (!touches) return;
    switch (s.op) {
      case OpKind::Fill: ok = ok && s.target().offsets.empty(); break;
      case OpKind::Gemm: ok = ok && s.gemm_a().buffer != name && s.gemm_b().buffer != name; break;
      case OpKind::Copy:
        for (const TileRef& t : s.tiles)
          if (t.buffer == name) ok = ok && t.offsets.empty();
        ok = ok && !(buffers.at(s.copy_src().buffer).scope == Scope::Fragment && buffers.at(s.copy_dst().buffer).scope == Scope::Fragment);
        break;
      case OpKind::Map: ok = ok && s.target().buffer == name && arithmetic_over(s.value(), name, false); break;
      case OpKind::Alloc:
      case OpKind::Reduce:
      case OpKind::Scan:
      case OpKind::Store:
      case OpKind::AtomicAdd:
      case OpKind::Barrier:
      case OpKind::For:
      case OpKind::Pipelined:
      case OpKind::Parallel:
      case OpKind::If: ok = false; break;
    }
  });
  return ok;
}

/// Whether a fragment is only filled whole, used as a gemm's accumulator, changed by maps of
/// matrix arithmetic (f32 fragments) and copied whole to a global f16 or f32 tensor (what a
/// workgroup-scope matrix supports).
bool store_only(const Block& body, const std::string& name, const BufferMap& buffers) {
  bool ok = true;
  for_each_stmt(body, [&](const Stmt& s) {
    bool touches = false;
    for (const TileRef& t : s.tiles) touches = touches || t.buffer == name;
    if (!touches || s.op == OpKind::Alloc) return;
    switch (s.op) {
      case OpKind::Fill: ok = ok && s.target().offsets.empty(); break;
      case OpKind::Gemm: ok = ok && s.gemm_c().buffer == name && s.gemm_a().buffer != name && s.gemm_b().buffer != name; break;
      case OpKind::Map:
        ok = ok && s.target().buffer == name && s.target().offsets.empty() && buffers.at(name).dtype == DType::F32 &&
             arithmetic_over(s.value(), name, true);
        break;
      case OpKind::Copy:
        ok = ok && s.copy_src().buffer == name && s.copy_src().offsets.empty() && stmt_attr_ints(s, "extent").empty() &&
             buffers.at(s.copy_dst().buffer).scope == Scope::Global &&
             (buffers.at(s.copy_dst().buffer).dtype == DType::F16 || buffers.at(s.copy_dst().buffer).dtype == DType::F32);
        break;
      case OpKind::Alloc:
      case OpKind::Reduce:
      case OpKind::Scan:
      case OpKind::Store:
      case OpKind::AtomicAdd:
      case OpKind::Barrier:
      case OpKind::For:
      case OpKind::Pipelined:
      case OpKind::Parallel:
      case OpKind::If: ok = false; break;
    }
  });
  return ok;
}

/// The one tiling of a workgroup-scope matrix: the whole tile as one atom over the block.
std::optional<Candidate> tile_workgroup(const MatrixInstruction& mi, const GemmFacts& g, int64_t threads, std::string& why) {
  if (mi.group_threads != threads) {
    why = "its matrices span a workgroup of " + std::to_string(mi.group_threads) + " threads, not " + std::to_string(threads);
    return std::nullopt;
  }
  if (!g.c_store_only) {
    why =
        "a workgroup matrix accumulator can only be filled, multiplied into, changed by + - * of scalars (no element "
        "index) and copied whole "
        "to an f16 or f32 tensor";
    return std::nullopt;
  }
  if (!g.tensors_aligned) {
    why = "it loads A and B from their tensors, which must start on 16-byte boundaries (only the aligned variant)";
    return std::nullopt;
  }
  if (!g.a_unforwardable.empty() || !g.b_unforwardable.empty()) {
    why = "it loads A and B from their tensors, but " + (g.a_unforwardable.empty() ? g.b_unforwardable : g.a_unforwardable);
    return std::nullopt;
  }
  for (int which = 0; which < 2; ++which) {
    Major major = which == 0 ? g.a_major : g.b_major;
    const std::vector<Major>& takes = which == 0 ? mi.a_majors : mi.b_majors;
    if (std::find(takes.begin(), takes.end(), major) == takes.end()) {
      why = std::string(which == 0 ? "A" : "B") + " is stored " + major_name(major) + "-major, which it does not load";
      return std::nullopt;
    }
  }
  if (!mi.m.contains(int(g.M)) || !mi.n.contains(int(g.N))) {
    why = "M x N = " + std::to_string(g.M) + "x" + std::to_string(g.N) + " is not a matrix size it allows (m " + mi.m.to_string() +
          ", n " + mi.n.to_string() + ")";
    return std::nullopt;
  }
  int best_k = 0;
  for (int k : mi.k.values())
    if (g.K % k == 0) best_k = k;
  if (best_k == 0) {
    why = "K = " + std::to_string(g.K) + " is not a multiple of any k it allows (" + mi.k.to_string() + ")";
    return std::nullopt;
  }
  Candidate c;
  // Per-thread rate, with the same large-n preference as the subgroup tilings.
  c.score = mi.rate / double(mi.group_threads) * (1.0 + 1e-4 * double(g.N));
  GemmPlan& p = c.plan;
  p.inst = mi.id;
  p.kind = mi.kind;
  p.m = int(g.M), p.n = int(g.N), p.k = best_k;
  p.gm = p.gn = p.rm = p.rn = 1;
  p.group_threads = mi.group_threads;
  p.Mp = g.M, p.Np = g.N, p.Kp = g.K;
  p.a_from = p.b_from = OperandLocation::Global;
  return c;
}

/// Where an instruction can take an operand kept in `scope`; nullopt when it cannot.
std::optional<OperandLocation> operand_source(const Operand& op, Scope scope, Major major, const std::vector<Major>& majors,
                                              std::string& why, const char* name) {
  bool regs = false;
  if (const OperandPlacement* p = op.find(OperandLocation::Registers)) regs = p->form == OperandPlacement::Form::ThreadValue;
  if (scope == Scope::Fragment) {
    if (regs) return OperandLocation::Registers;
    why = std::string(name) + " is a fragment but the instruction takes it only from shared memory";
    return std::nullopt;
  }
  // Shared: prefer the instruction's own shared form (a descriptor) when the major order fits.
  if (op.allows(OperandLocation::Shared)) {
    if (std::find(majors.begin(), majors.end(), major) != majors.end()) return OperandLocation::Shared;
    if (!regs) {
      why = std::string(name) + " is stored " + major_name(major) + "-major, which the instruction's shared form does not take";
      return std::nullopt;
    }
  }
  if (regs) return OperandLocation::Registers;
  why = std::string(name) + " cannot be loaded into this instruction's operand";
  return std::nullopt;
}

/// The best tiling of one concrete atom shape over the block's groups.
std::optional<Candidate> tile(const MatrixInstruction& mi, MmaShape atom, const GemmFacts& g, int64_t threads, std::string& why) {
  if (g.K % atom.k) {
    why = "K = " + std::to_string(g.K) + " is not a multiple of " + std::to_string(atom.k);
    return std::nullopt;
  }
  int64_t groups = threads / mi.group_threads;
  std::optional<Candidate> best;
  // Group counts that divide the block's groups, largest first, so leftover threads can
  // replicate a whole number of times.
  std::vector<int64_t> counts;
  for (int64_t used = groups; used >= 1; --used)
    if (groups % used == 0) counts.push_back(used);
  for (int64_t used : counts) {
    for (int64_t gm = 1; gm <= used; gm *= 2) {
      if (used % gm) continue;
      int64_t gn = used / gm;
      int64_t Mp = round_up(g.M, gm * atom.m), Np = round_up(g.N, gn * atom.n);
      if (Mp != g.M && !g.can_pad_m) continue;
      if (Np != g.N && !g.can_pad_n) continue;
      double efficiency = double(g.M * g.N) / double(Mp * Np) * double(used) / double(groups);
      // Prefer square per-group tiles (operand reuse), then fewer, larger atoms.
      int64_t tm = Mp / gm, tn = Np / gn;
      double shape_bonus = 1.0 / (1.0 + 0.01 * std::fabs(std::log2(double(tm) / double(tn))));
      double score = mi.rate / double(mi.group_threads) * efficiency * shape_bonus * (1.0 + 1e-4 * double(atom.n));
      if (best && best->score >= score) continue;
      Candidate c;
      c.score = score;
      GemmPlan& p = c.plan;
      p.inst = mi.id;
      p.kind = mi.kind;
      p.m = atom.m, p.n = atom.n, p.k = atom.k;
      p.gm = gm, p.gn = gn;
      p.rm = Mp / (gm * atom.m), p.rn = Np / (gn * atom.n);
      p.group_threads = mi.group_threads;
      p.Mp = Mp, p.Np = Np, p.Kp = g.K;
      best = c;
    }
    if (best) break;  // use as many groups as possible; fewer only when nothing fits
  }
  if (!best) why = "M = " + std::to_string(g.M) + ", N = " + std::to_string(g.N) + " cannot be tiled over its groups without padding";
  return best;
}

std::optional<Candidate> consider(const MatrixInstruction& mi, const GemmFacts& g, int64_t threads, std::string& why) {
  if (mi.kind == InstructionKind::Fma) {
    why = "the fallback";
    return std::nullopt;
  }
  if (threads % mi.group_threads) {
    why = "its group of " + std::to_string(mi.group_threads) + " threads does not divide the block's " + std::to_string(threads);
    return std::nullopt;
  }
  // The accumulator must come back to registers in a described layout, or (a cooperative
  // matrix) stay an opaque matrix that only fills, gemms, whole copies and arithmetic maps use.
  const OperandPlacement* acc_regs = mi.acc.find(OperandLocation::Registers);
  const OperandPlacement* acc_tmem = mi.acc.find(OperandLocation::TensorMemory);
  bool acc_opaque = acc_regs && acc_regs->form == OperandPlacement::Form::Opaque;
  bool acc_described = (acc_regs && acc_regs->form == OperandPlacement::Form::ThreadValue) ||
                       (acc_tmem && acc_tmem->readback_layout);
  if (acc_opaque && mi.scope == GroupScope::Cta) return tile_workgroup(mi, g, threads, why);
  if (acc_opaque) {
    if (!g.c_may_be_opaque) {
      why =
          "its accumulator is an opaque matrix, and the kernel uses C in a way only a per-thread layout allows "
          "(a reduction, a broadcast, a sub-tile, an element index or a function other than + - * /)";
      return std::nullopt;
    }
    if (g.a_scope != Scope::Shared || g.b_scope != Scope::Shared) {
      why = "an opaque matrix instruction loads A and B from shared memory";
      return std::nullopt;
    }
  } else if (!acc_described) {
    why = "its accumulator has no described register layout";
    return std::nullopt;
  }
  if (acc_opaque) {
    std::optional<Candidate> best;
    std::string last_why;
    for (const MmaShape& atom : instruction_shapes(mi)) {
      auto c = tile(mi, atom, g, threads, last_why);
      if (c && (!best || c->score > best->score)) best = c;
    }
    if (!best) {
      why = last_why;
      return std::nullopt;
    }
    best->plan.a_from = best->plan.b_from = OperandLocation::Registers;
    return best;
  }
  auto a_src = operand_source(mi.a, g.a_scope, g.a_major, mi.a_majors, why, "A");
  if (!a_src) return std::nullopt;
  auto b_src = operand_source(mi.b, g.b_scope, g.b_major, mi.b_majors, why, "B");
  if (!b_src) return std::nullopt;
  for (int which = 0; which < 2; ++which) {
    bool shared = (which == 0 ? *a_src : *b_src) == OperandLocation::Shared;
    const auto& shape = which == 0 ? g.a_shape : g.b_shape;
    if (shared && !descriptor_fits(shape, which == 0 ? g.a : g.b)) {
      why = std::string(which == 0 ? "A" : "B") + " cannot be read through a shared-memory descriptor: its rows must hold whole " +
            "16-byte core-matrix rows and come in groups of 8";
      return std::nullopt;
    }
  }
  std::optional<Candidate> best;
  std::string last_why;
  for (const MmaShape& atom : instruction_shapes(mi)) {
    auto c = tile(mi, atom, g, threads, last_why);
    if (!c) continue;
    if (best && best->score >= c->score) continue;
    best = c;
  }
  if (!best) {
    why = last_why;
    return std::nullopt;
  }
  best->plan.a_from = *a_src;
  best->plan.b_from = *b_src;
  return best;
}

GemmPlan fma_plan(const GemmFacts& g, int64_t threads) {
  auto pow2_dividing = [](int64_t n, int64_t cap) {
    int64_t p = 1;
    while (p * 2 <= cap && n % (p * 2) == 0) p *= 2;
    return p;
  };
  GemmPlan p;
  p.inst = "fma";
  p.kind = InstructionKind::Fma;
  // Threads along N first (contiguous stores), then along M; what is left repeats the work.
  // Both counts divide the thread count so the repetition is whole.
  p.gn = pow2_dividing(std::gcd(g.N, threads), std::min<int64_t>(threads, std::max<int64_t>(1, g.N / std::min<int64_t>(g.N, 4))));
  p.gm = pow2_dividing(std::gcd(g.M, threads / p.gn), threads / p.gn);
  p.rm = g.M / p.gm;
  p.rn = g.N / p.gn;
  p.Mp = g.M, p.Np = g.N, p.Kp = g.K;
  p.a_from = g.a_scope == Scope::Fragment ? OperandLocation::Registers : OperandLocation::Shared;
  p.b_from = g.b_scope == Scope::Fragment ? OperandLocation::Registers : OperandLocation::Shared;
  return p;
}

}  // namespace

Status select_instructions(LowerContext& ctx) {
  BufferMap buffers = ctx.buffers();
  int64_t threads = ctx.kernel.threads;
  Status status;
  for_each_stmt(ctx.kernel.body, [&](Stmt& s) {
    if (s.op != OpKind::Gemm || !status.is_ok()) return;
    const BufferInfo& A = buffers.at(s.gemm_a().buffer);
    const BufferInfo& B = buffers.at(s.gemm_b().buffer);
    const BufferInfo& C = buffers.at(s.gemm_c().buffer);
    bool ta = stmt_attr_bool(s, "trans_a"), tb = stmt_attr_bool(s, "trans_b");
    GemmFacts g;
    g.M = C.shape[0], g.N = C.shape[1], g.K = ta ? A.shape[0] : A.shape[1];
    g.a = A.dtype, g.b = B.dtype, g.c = C.dtype;
    g.a_scope = A.scope, g.b_scope = B.scope;
    g.a_shape = A.shape, g.b_shape = B.shape;
    g.c_may_be_opaque = opaque_compatible(ctx.kernel.body, s.gemm_c().buffer, buffers);
    g.c_store_only = store_only(ctx.kernel.body, s.gemm_c().buffer, buffers);
    g.tensors_aligned = ctx.options.tensors_aligned;
    if (!staging_copy(ctx.kernel, s, true, g.a_unforwardable) && g.a_unforwardable.empty()) g.a_unforwardable = "A cannot be forwarded";
    if (!staging_copy(ctx.kernel, s, false, g.b_unforwardable) && g.b_unforwardable.empty()) g.b_unforwardable = "B cannot be forwarded";
    g.a_major = ta ? Major::MN : Major::K;
    g.b_major = tb ? Major::K : Major::MN;
    g.can_pad_m = paddable(ctx.kernel.body, s.gemm_a().buffer) && paddable(ctx.kernel.body, s.gemm_c().buffer);
    g.can_pad_n = paddable(ctx.kernel.body, s.gemm_b().buffer) && paddable(ctx.kernel.body, s.gemm_c().buffer);
    std::string head = where(s) + "gemm " + std::to_string(g.M) + "x" + std::to_string(g.N) + "x" + std::to_string(g.K) + " " +
                       dtype_name(g.a) + "*" + dtype_name(g.b) + "->" + dtype_name(g.c) + ": ";
    std::string forced = stmt_attr_ident(s, "inst");
    if (forced == "fma") {
      set_gemm_plan(s.attrs, fma_plan(g, threads));
      ctx.note(head + "fma (named by inst=fma)");
      return;
    }
    std::optional<Candidate> best;
    for (const MatrixInstruction* mi : instructions_for(ctx.target, g.a, g.b, g.c)) {
      if (forced != "auto" && mi->id != forced) continue;
      std::string why;
      auto c = consider(*mi, g, threads, why);
      if (!c) {
        if (mi->kind != InstructionKind::Fma) ctx.note(head + "not " + mi->id + ": " + why);
        if (forced != "auto") {
          status = error(ErrorCode::Unsupported, "instruction '" + forced + "' cannot compute this gemm: " + why, s.loc);
          return;
        }
        continue;
      }
      if (!best || c->score > best->score) best = c;
    }
    if (forced != "auto" && !best) {
      status = error(ErrorCode::Unsupported, "target '" + ctx.target.name + "' has no instruction '" + forced + "' for " +
                                                 dtype_name(g.a) + "*" + dtype_name(g.b) + "->" + dtype_name(g.c),
                     s.loc);
      return;
    }
    if (!best) {
      GemmPlan p = fma_plan(g, threads);
      set_gemm_plan(s.attrs, p);
      ctx.note(head + "fma fallback, " + std::to_string(p.gm) + "x" + std::to_string(p.gn) + " threads of " + std::to_string(p.rm) +
               "x" + std::to_string(p.rn) + " (no catalogue entry fits)");
      return;
    }
    const GemmPlan& p = best->plan;
    set_gemm_plan(s.attrs, p);
    std::string padded = (p.Mp != g.M || p.Np != g.N) ? ", padded to " + std::to_string(p.Mp) + "x" + std::to_string(p.Np) : "";
    ctx.note(head + p.inst + " m" + std::to_string(p.m) + "n" + std::to_string(p.n) + "k" + std::to_string(p.k) + ", groups " +
             std::to_string(p.gm) + "x" + std::to_string(p.gn) + ", " + std::to_string(p.rm) + "x" + std::to_string(p.rn) +
             " atoms each, A from " + operand_location_name(p.a_from) + ", B from " + operand_location_name(p.b_from) + padded);
  });
  return status;
}

}  // namespace tegula::ir
