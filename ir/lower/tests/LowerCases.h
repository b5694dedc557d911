// Small helpers for the per-pass tests: lower a kernel text and find statements in it.
#pragma once

#include "ir/lower/Context.h"

#include <cstdint>
#include "ir/lower/tests/LowerTestUtil.h"

namespace tegula::ir::testing {

inline Result<LowerResult> lower_text(const std::string& text, const std::string& target_name, LowerOptions o = {}) {
  TG_ASSIGN_OR_RETURN(Kernel k, parse_and_verify(text, "case.tile"));
  TargetDescription t = target(target_name);
  return lower(k, t, o);
}

inline const Stmt* first_op(const Block& b, OpKind op) {
  for (const Stmt& s : b.stmts) {
    if (s.op == op) return &s;
    for (const Block& inner : s.blocks)
      if (const Stmt* f = first_op(inner, op)) return f;
  }
  return nullptr;
}

inline const Stmt* alloc_of(const Kernel& k, const std::string& name) {
  for (const Stmt& s : k.body.stmts)
    if (s.op == OpKind::Alloc && s.name == name) return &s;
  return nullptr;
}

template <typename T>
inline std::string attr_text(const T& s, const char* name) {
  const Attr* a = find_attr(s.attrs, name);
  return a ? print_attr_value(a->value) : "";
}

inline bool log_has(const LowerResult& r, const std::string& needle) {
  for (const std::string& line : r.log)
    if (line.find(needle) != std::string::npos) return true;
  return false;
}

inline std::string gemm_text(const std::string& dt, int64_t m, int64_t n, int64_t k, int64_t threads, const std::string& extra = "") {
  auto s = [](int64_t v) { return std::to_string(v); };
  return "kernel g(A: " + dt + "[M, K], B: " + dt + "[K, N], C: f32[M, N]) grid(ceildiv(N, " + s(n) + "), ceildiv(M, " + s(m) +
         ")) threads(" + s(threads) + ") {\n  alloc As: shared " + dt + "[" + s(m) + ", " + s(k) + "]\n  alloc Bs: shared " + dt + "[" +
         s(k) + ", " + s(n) + "]\n  alloc Acc: fragment f32[" + s(m) + ", " + s(n) + "]\n  fill Acc, 0.0\n  for kk in 0 .. ceildiv(K, " +
         s(k) + ") {\n    copy A[by * " + s(m) + ", kk * " + s(k) + "], As\n    copy B[kk * " + s(k) + ", bx * " + s(n) +
         "], Bs\n    gemm As, Bs, Acc, accumulate=true" + extra + "\n  }\n  copy Acc, C[by * " + s(m) + ", bx * " + s(n) + "]\n}\n";
}

}  // namespace tegula::ir::testing
