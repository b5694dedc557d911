/// \file
/// What the two generators (SpecGemm.cpp: contractions; SpecRows.cpp: row reductions and
/// softmax) share: the checked statement with its dtypes, and expression rendering into the
/// map language of ir/OpList.h.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ir/spec/Spec.h"
#include "ir/spec/SpecAst.h"

namespace tegula::ir::spec {

struct Checked {
  std::string text;  ///< the spec as given
  Statement s;
  std::string name;                     ///< the kernel's name
  std::map<std::string, DType> dtypes;  ///< every tensor and scalar
  std::vector<std::string> scalars;     ///< in order of first use
  std::map<std::string, std::string> symbols;  ///< each index's shape symbol
  std::map<std::string, std::string> tunables;  ///< each tunable's usual name -> its name here
  DType acc = DType::F32;
};

/// The tunables of the generated kernels, by their usual names. Generators write `$BM`;
/// name_tunables puts in the name the kernel uses (BM, or BM_ when a tensor is named BM).
inline constexpr const char* kTunableNames[] = {"BM", "BN", "BK", "S", "T", "R", "W"};
std::string name_tunables(const Checked& c, const std::string& text);

/// The shape symbol of an index: its name in capitals, with a _ added while that is a
/// tensor's, scalar's or tunable's name (C[b, m, n] = A[b, m, k] * B[b, k, n] has the batch
/// extent B_; an index s has the extent S_, S being the stage count).
std::string symbol(const Checked& c, const std::string& index);
/// `X: bf16[M, K]` with the shape given.
std::string param(const Checked& c, const std::string& tensor, const std::vector<std::string>& shape);
/// The header comment every generated kernel starts with.
std::string header_comment(const Checked& c, const std::vector<std::string>& roles);

/// A node the caller renders itself (the accumulator in place of the product, a tile in place
/// of a tensor reference): returns true and sets *out, or false to render `e` as usual.
using Leaf = std::function<bool(const Expr& e, std::string* out)>;

/// `e` in the map language; functions the IR lacks (gelu, relu, silu) are written out.
Result<std::string> render(const Expr& e, const Leaf& leaf);

Result<std::string> generate_gemm(const Checked& c);
/// Row reductions (sum, max, min of one argument) and softmax; `call` is that call.
Result<std::string> generate_rows(const Checked& c, const Expr& call);

}  // namespace tegula::ir::spec
