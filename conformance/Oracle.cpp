#include "conformance/Oracle.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/Inputs.h"
#include "core/DType.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"

namespace tegula::conformance {
namespace {

Result<int64_t> symbol_value(const CaseSpec& spec, const std::string& name) {
  for (const auto& [n, v] : spec.symbols)
    if (n == name) return v;
  return error(ErrorCode::Internal, "case " + spec.name + " does not bind shape symbol " + name);
}

std::vector<ir::Arg> launch_args(const HostCase& h, const CaseSpec& spec, std::vector<std::vector<uint8_t>>& tensors) {
  std::vector<ir::Arg> args;
  for (size_t i = 0; i < h.kernel.params.size(); ++i) {
    const ir::Param& p = h.kernel.params[i];
    if (p.is_tensor) args.push_back(ir::Arg::tensor(tensors[i].data(), tensors[i].size()));
    else if (dtype_is_float(p.dtype)) args.push_back(ir::Arg::number(spec.scalars[i]));
    else args.push_back(ir::Arg::integer(int64_t(spec.scalars[i])));
  }
  for (int64_t s : h.symbols) args.push_back(ir::Arg::integer(s));
  return args;
}

/// Outputs start as NaN poison, and a NaN matches any NaN: an element whose result is a NaN
/// would pass even if the device never wrote it. Such elements start at a finite sentinel
/// instead (for the reference and the device alike); true when any did.
bool restart_nan_results(HostCase& h, const CaseSpec& spec) {
  bool changed = false;
  for (size_t i = 0; i < h.kernel.params.size(); ++i) {
    const ir::Param& p = h.kernel.params[i];
    if (!p.is_tensor || spec.tensors[i].role != Role::Output || !dtype_is_float(p.dtype)) continue;
    size_t size = dtype_size(p.dtype);
    std::vector<uint8_t> poison_bits = poison_element(p.dtype);
    for (size_t off = 0; off + size <= h.expected[i].size(); off += size) {
      const uint8_t* e = h.expected[i].data() + off;
      if (!std::isnan(load_element(p.dtype, e)) || std::memcmp(e, poison_bits.data(), size) == 0) continue;
      store_element(p.dtype, kNanResultSentinel, h.initial[i].data() + off);
      changed = true;
    }
  }
  return changed;
}

}  // namespace

Result<HostCase> prepare_host_case(const CaseSpec& spec, uint64_t run_seed) {
  HostCase h;
  TG_ASSIGN_OR_RETURN(h.kernel, ir::parse_and_verify(spec.kernel, spec.name));
  if (spec.tensors.size() != h.kernel.params.size() || spec.scalars.size() != h.kernel.params.size())
    return error(ErrorCode::Internal, "case " + spec.name + " describes " + std::to_string(spec.tensors.size()) +
                                          " parameters, its kernel has " + std::to_string(h.kernel.params.size()));
  for (const std::string& s : h.kernel.symbols()) {
    TG_ASSIGN_OR_RETURN(int64_t v, symbol_value(spec, s));
    h.symbols.push_back(v);
  }
  h.seed = run_seed;
  size_t n = h.kernel.params.size();
  h.shapes.resize(n);
  h.initial.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const ir::Param& p = h.kernel.params[i];
    if (!p.is_tensor) continue;
    int64_t count = 1;
    for (const ir::Expr& d : p.shape) {
      int64_t v = d->kind == ir::ExprKind::IntImm ? d->int_value : 0;
      if (d->kind == ir::ExprKind::Var) {
        TG_ASSIGN_OR_RETURN(v, symbol_value(spec, d->name));
      }
      h.shapes[i].push_back(v);
      count *= v;
    }
    const TensorSpec& t = spec.tensors[i];
    if (t.role == Role::Output) h.initial[i] = poison(p.dtype, count);
    else h.initial[i] = make_values(p.dtype, t.values, count, case_seed(run_seed, spec.name, int(i)), int(i), t.index_limit);
  }
  h.expected = h.initial;
  // An erroneous kernel has no reference result (the interpreter refuses it): the device's
  // declared out-of-range behaviour judges it (Executor.cpp).
  if (spec.out_of_range) return h;
  std::vector<ir::Arg> args = launch_args(h, spec, h.expected);
  Status st = ir::interpret(h.kernel, args);
  if (!st.is_ok()) return error(ErrorCode::Internal, "the reference interpreter failed on case " + spec.name + ": " + st.str());
  if (restart_nan_results(h, spec)) {
    // Again from the new start: a kernel that reads its outputs sees what the device will.
    h.expected = h.initial;
    std::vector<ir::Arg> again = launch_args(h, spec, h.expected);
    st = ir::interpret(h.kernel, again);
    if (!st.is_ok()) return error(ErrorCode::Internal, "the reference interpreter failed on case " + spec.name + ": " + st.str());
  }
  if (spec.check != Check::Accumulate) return h;
  // The same kernel on absolute values: each output's sum of |terms| (the bound's scale).
  h.magnitude = h.initial;
  for (size_t i = 0; i < n; ++i) {
    const ir::Param& p = h.kernel.params[i];
    if (!p.is_tensor || spec.tensors[i].role == Role::Output || !dtype_is_float(p.dtype)) continue;
    size_t size = dtype_size(p.dtype);
    for (size_t off = 0; off + size <= h.magnitude[i].size(); off += size) {
      uint8_t* e = h.magnitude[i].data() + off;
      store_element(p.dtype, std::fabs(load_element(p.dtype, e)), e);
    }
  }
  std::vector<ir::Arg> margs = launch_args(h, spec, h.magnitude);
  st = ir::interpret(h.kernel, margs);
  if (!st.is_ok()) return error(ErrorCode::Internal, "the reference interpreter failed on case " + spec.name + " (magnitudes): " + st.str());
  return h;
}

}  // namespace tegula::conformance
