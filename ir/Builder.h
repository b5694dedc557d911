/// \file
/// A C++ builder for the tile IR. It produces exactly the IR the parser produces for the
/// same kernel written as text (the tests print both and compare), so embedders can build
/// kernels without text.
///
///   KernelBuilder b("scale");
///   Expr n = b.sym("N");
///   BufferRef x = b.tensor("X", DType::F32, {n});
///   ...
///   Result<Kernel> k = b.build();  // verified
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"

namespace tegula::ir {

// Expression operators. (Comparisons are functions: operator== on shared pointers already
// means pointer equality.)
Expr operator+(Expr a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator*(Expr a, Expr b);
Expr operator/(Expr a, Expr b);
Expr operator%(Expr a, Expr b);
Expr operator-(Expr a);

/// A literal of the right kind: integers become IntImm, floating-point values FloatImm.
template <typename T>
  requires std::is_arithmetic_v<T>
Expr literal(T v) {
  if constexpr (std::is_integral_v<T>) {
    return int_imm(int64_t(v));
  } else {
    return float_imm(double(v));
  }
}
template <typename T> requires std::is_arithmetic_v<T> Expr operator+(Expr a, T b) { return std::move(a) + literal(b); }
template <typename T> requires std::is_arithmetic_v<T> Expr operator-(Expr a, T b) { return std::move(a) - literal(b); }
template <typename T> requires std::is_arithmetic_v<T> Expr operator*(Expr a, T b) { return std::move(a) * literal(b); }
template <typename T> requires std::is_arithmetic_v<T> Expr operator/(Expr a, T b) { return std::move(a) / literal(b); }
template <typename T> requires std::is_arithmetic_v<T> Expr operator+(T a, Expr b) { return literal(a) + std::move(b); }
template <typename T> requires std::is_arithmetic_v<T> Expr operator-(T a, Expr b) { return literal(a) - std::move(b); }
template <typename T> requires std::is_arithmetic_v<T> Expr operator*(T a, Expr b) { return literal(a) * std::move(b); }
template <typename T> requires std::is_arithmetic_v<T> Expr operator/(T a, Expr b) { return literal(a) / std::move(b); }
Expr lt(Expr a, Expr b);
Expr le(Expr a, Expr b);
Expr gt(Expr a, Expr b);
Expr ge(Expr a, Expr b);
Expr eq(Expr a, Expr b);
Expr ne(Expr a, Expr b);
Expr logical_and(Expr a, Expr b);
Expr logical_or(Expr a, Expr b);
Expr ceildiv(Expr a, Expr b);
inline Expr ceildiv(Expr a, int64_t b) { return ceildiv(std::move(a), int_imm(b)); }
Expr max(Expr a, Expr b);
Expr min(Expr a, Expr b);
Expr exp(Expr x);
Expr exp2(Expr x);
Expr log(Expr x);
Expr sqrt(Expr x);
Expr rsqrt(Expr x);
Expr tanh(Expr x);
Expr abs(Expr x);
Expr log2(Expr x);
Expr log1p(Expr x);
Expr erf(Expr x);
Expr sigmoid(Expr x);
// Bit operators on 32-bit words (ir/OpList.h): & | ^ ~ << >> >>>.
Expr bit_and(Expr a, Expr b);
Expr bit_or(Expr a, Expr b);
Expr bit_xor(Expr a, Expr b);
Expr bit_not(Expr a);
Expr shl(Expr a, Expr count);
Expr shr(Expr a, Expr count);
Expr shr_logical(Expr a, Expr count);

/// A buffer by name: a whole tile, a tile at offsets, an element, or a whole-tile use in a
/// map expression.
struct BufferRef {
  std::string name;
  TileRef whole() const { return TileRef{name, {}, {}}; }
  TileRef at(std::vector<Expr> offsets) const { return TileRef{name, std::move(offsets), {}}; }
  Expr operator()(std::vector<Expr> indices) const { return load(name, std::move(indices)); }
  Expr tile() const { return tile_use(name); }
  operator TileRef() const { return whole(); }
};

struct GemmOptions {
  bool accumulate = false;
  bool trans_a = false;
  bool trans_b = false;
};

class KernelBuilder {
public:
  explicit KernelBuilder(std::string name);

  Expr sym(const std::string& name) { return var(name); }
  Expr block_index(int axis) { return var(kBlockIndexNames[axis]); }
  BufferRef tensor(const std::string& name, DType dtype, std::vector<Expr> shape);
  Expr scalar(const std::string& name, DType dtype);
  void grid(std::vector<Expr> dims) { k_.grid = std::move(dims); }
  void threads(int64_t n) { k_.threads = n; }
  void attr(std::string name, AttrValue value) { set_attr(k_.attrs, std::move(name), std::move(value)); }

  BufferRef alloc(const std::string& name, Scope scope, DType dtype, std::vector<int64_t> shape);
  void copy(TileRef src, TileRef dst, std::vector<Attr> attrs = {});
  void fill(TileRef dst, Expr value);
  void gemm(TileRef a, TileRef b, TileRef c, GemmOptions options = {});
  void reduce(TileRef src, TileRef dst, ReduceKind kind, int64_t axis, bool clear = true);
  void map(TileRef dst, Expr value);
  void store(TileRef element, Expr value);
  void atomic_add(TileRef src, TileRef dst);
  void barrier();
  void for_(const std::string& var_name, Expr lo, Expr hi, const std::function<void(Expr)>& body);
  void pipelined(const std::string& var_name, Expr lo, Expr hi, int64_t stages,
                 const std::function<void(Expr)>& body);
  void parallel(std::vector<std::string> vars, std::vector<int64_t> extents,
                const std::function<void(std::vector<Expr>)>& body);
  void if_(Expr cond, const std::function<void()>& then_body,
           const std::function<void()>& else_body = nullptr);

  /// The kernel, verified.
  Result<Kernel> build();

private:
  Stmt& emit(OpKind op);
  void nested(Stmt& s, const std::function<void()>& body);

  Kernel k_;
  std::vector<Block*> stack_;
};

}  // namespace tegula::ir
