/// \file
/// The interpreter's run-time machine, shared by the oracle (ir/Interpreter.cpp) and the
/// lowered-form model (ir/interp/LoweredModel.cpp): buffers (with the per-slot storage of
/// lowered fragments), compiled expressions and statements as closures, and the partial
/// results of reductions.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"
#include "ir/IR.h"
#include "ir/MaxMin.h"
#include "ir/lower/Distribution.h"
#include "ir/lower/GemmPlan.h"

namespace tegula {
struct TargetDescription;
}

namespace tegula::ir::interp {

/// A buffer at run time. Global tensors read and write their bytes in place (each store
/// rounds through the dtype's encoding); other scopes hold already-rounded float64 values.
struct Buf {
  std::string name;
  Scope scope = Scope::Shared;
  DType dtype = DType::F32;
  Fp8Mode mode = Fp8Mode::Saturating;  ///< the kernel's saturate attribute (ir::store_mode)
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  int64_t numel = 0;
  std::vector<double> data;  // non-global
  uint8_t* bytes = nullptr;  // global

  // A lowered fragment keeps its values per (thread, value) slot, the way registers hold
  // them: a read takes the first thread that holds the element, a write updates every copy.
  // A distribution that misses an element, or an op that writes registers in an order its
  // layout does not describe, then shows up as a wrong result.
  bool physical = false;
  Distribution dist;
  int64_t slots_per_thread = 0;
  std::vector<double> regs;
  std::vector<int64_t> owner;        // element -> first slot holding it (-1: none)
  std::vector<int64_t> slot_element; // slot -> element (-1: padding)
  std::vector<int64_t> copies_begin; // element -> range in copies: every slot holding it
  std::vector<int64_t> copies;

  void set_shape(std::vector<int64_t> s) {
    shape = std::move(s);
    strides.assign(shape.size(), 1);
    numel = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      strides[i] = numel;
      numel *= shape[i];
    }
  }
  double get(int64_t linear) const {
    if (scope == Scope::Global) return load_element(dtype, bytes + linear * int64_t(dtype_size(dtype)));
    if (physical) return owner[size_t(linear)] < 0 ? std::nan("") : regs[size_t(owner[size_t(linear)])];
    return data[size_t(linear)];
  }
  void set(int64_t linear, double v) {
    if (scope == Scope::Global) {
      store_element(dtype, v, bytes + linear * int64_t(dtype_size(dtype)), mode);
      return;
    }
    if (physical) {
      double r = round_to_dtype(dtype, v, mode);
      for (int64_t i = copies_begin[size_t(linear)]; i < copies_begin[size_t(linear) + 1]; ++i) regs[size_t(copies[size_t(i)])] = r;
      return;
    }
    data[size_t(linear)] = round_to_dtype(dtype, v, mode);
  }
  /// Poison: reading a buffer before writing it gives NaN (0 once stored to an integer).
  void poison() {
    if (physical) {
      regs.assign(slot_element.size(), std::nan(""));
      return;
    }
    data.assign(size_t(numel), std::nan(""));
  }
  /// Switch a fragment to per-slot storage under distribution `d`.
  void make_physical(const Distribution& d);
};

using ExprFn = std::function<double()>;
using StmtFn = std::function<Status()>;

/// A partial reduction: the running value and whether any element was a number (so a row
/// of only NaN stays NaN while a NaN loses to numbers, as maximumNumber says).
struct Partial {
  double value = 0;
  bool any_number = false;
  bool any = false;
  static Partial identity(ReduceKind k) {
    Partial p;
    p.value = k == ReduceKind::Max ? -INFINITY : (k == ReduceKind::Min ? INFINITY : 0.0);
    return p;
  }
  void add(ReduceKind k, double v) {
    any = true;
    any_number = any_number || !std::isnan(v);
    switch (k) {
      case ReduceKind::Sum: value += v; break;
      case ReduceKind::Max: value = maximum_number(value, v); break;
      case ReduceKind::Min: value = minimum_number(value, v); break;
      case ReduceKind::AbsMax: value = maximum_number(value, std::fabs(v)); break;
    }
  }
  void merge(ReduceKind k, const Partial& o) {
    if (!o.any) return;
    any = true;
    any_number = any_number || o.any_number;
    switch (k) {
      case ReduceKind::Sum: value += o.value; break;
      case ReduceKind::Max:
      case ReduceKind::AbsMax: value = maximum_number(value, o.value); break;
      case ReduceKind::Min: value = minimum_number(value, o.value); break;
    }
  }
  double finish(ReduceKind k, bool clear, double old) const {
    double v = value;
    if (!any_number && k != ReduceKind::Sum) v = std::nan("");
    if (clear) return v;
    switch (k) {
      case ReduceKind::Sum: return old + v;
      case ReduceKind::Max: return maximum_number(old, v);
      case ReduceKind::Min: return minimum_number(old, v);
      case ReduceKind::AbsMax: return maximum_number(std::fabs(old), v);
    }
    return v;
  }
};

// --- the lowered-form model (LoweredModel.cpp) ------------------------------------------

/// The gemm as the matrix instruction computes it: each thread's accumulator registers
/// hold the atom elements the catalogue's layout names, in the register order the lowering
/// convention fixes (atom register, then atom row repeat, then atom column repeat), and
/// register operands are read from the threads and registers the layout names.
/// `target` is the description the kernel was lowered for (null: none was found).
Result<StmtFn> compile_gemm_atoms(const Stmt& s, const TargetDescription* target, const GemmPlan& plan, Buf* a, Buf* b, Buf* c,
                                  bool ta, bool tb, bool acc);

/// A lowered copy's plan.inbounds (ProveInBounds.cpp): the dimensions of each side that
/// lowering says every run keeps inside its tensor. The model checks them on each run and
/// fails loudly when a tile reaches outside a claimed dimension, so a wrong fact shows up as
/// an error instead of an access a backend left unchecked.
struct InBoundsClaims {
  std::vector<bool> src, dst;
  Status check(const SourceLoc& loc, const Buf& src_buf, const std::vector<int64_t>& src_origin, const Buf& dst_buf,
               const std::vector<int64_t>& dst_origin, const std::vector<int64_t>& extent) const;
};
Result<InBoundsClaims> in_bounds_claims(const Stmt& s);

/// The reduction as its plan runs it: per-thread partials over the plan's distribution,
/// butterfly exchanges for each xor offset, and the result written to each thread's own
/// copies of the destination. A thread the plan leaves without a complete partial writes
/// what it has, so a missing step shows up as a wrong result.
Result<StmtFn> compile_reduce_plan(const Stmt& s, Buf* src, Buf* dst, ReduceKind kind, int64_t axis, bool clear);

/// A lowered scan's plan (plan.threads/values over its lines, the carry's shape): every
/// line is walked by one thread, up to replicas, and nothing outside the lines, or the
/// sequential walk each thread does would miss or repeat a line.
Status check_scan_plan(const Stmt& s, const std::vector<int64_t>& lines, int64_t axis);

}  // namespace tegula::ir::interp
