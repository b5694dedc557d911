/// \file
/// The CPU code generator's state and building blocks, shared by the files that emit each
/// kind of statement: values and their kinds, buffers, loops, runtime error flags, element
/// loads and stores with dtype conversion, and arena memory.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

#include "core/DType.h"
#include "core/Status.h"
#include "ir/Analysis.h"
#include "ir/IR.h"
#include "plugins/cpu/CpuAbi.h"
#include "plugins/cpu/codegen/Codegen.h"

namespace tegula::cpu {

/// How a value is held while computing: integers (Index) as i64, booleans as i1, floats as
/// f32 except f64 values (ir::Type's dtype decides).
enum class VK : uint8_t { Index, F32, F64, Bool };

struct Val {
  llvm::Value* v = nullptr;
  VK k = VK::Index;
};

VK kind_of(const ir::Type& t);
VK kind_of(DType d);  ///< the kind an element of this dtype loads as

/// A buffer as generated code sees it. Dims and strides are i64 values (constants for
/// shared, fragment and local buffers, loaded symbols for global ones); strides are in
/// elements, row-major.
struct Buffer {
  std::string name;
  ir::Scope scope = ir::Scope::Global;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;  ///< -1 for symbolic (global) dimensions
  std::vector<llvm::Value*> dims;
  std::vector<llvm::Value*> strides;
  llvm::Value* base = nullptr;  ///< the first element
  int alias = -1;               ///< alias scope (see Emitter::annotate); -1 for none

  int rank() const { return int(shape.size()); }
  bool global() const { return scope == ir::Scope::Global; }
  int64_t elements() const;  ///< for constant shapes
};

class Emitter {
public:
  Emitter(const ir::Kernel& kernel, const CodegenOptions& options, llvm::LLVMContext& context, llvm::Module& module);

  /// Build the entry function `name`.
  Status run(const std::string& name);
  uint64_t arena_bytes() const;

  // --- infrastructure (Emitter.cpp) ---------------------------------------------------
  llvm::LLVMContext& ctx;
  llvm::Module& mod;
  llvm::IRBuilder<> b;
  const ir::Kernel& kernel;
  const CodegenOptions& opts;
  llvm::Type* i1;
  llvm::Type* i8;
  llvm::Type* i16;
  llvm::Type* i32;
  llvm::Type* i64;
  llvm::Type* f32;
  llvm::Type* f64;
  llvm::PointerType* ptr;

  llvm::Value* ci(int64_t v) { return llvm::ConstantInt::get(i64, v, true); }
  llvm::Function* function() { return b.GetInsertBlock()->getParent(); }

  /// `for (i = lo; i < hi; ++i) body(i)`; the body leaves the builder where it likes.
  Status loop(llvm::Value* lo, llvm::Value* hi, const std::function<Status(llvm::Value*)>& body,
              const char* name = "i");
  /// Nested loops over a constant extent (last index fastest).
  Status loop_nest(const std::vector<int64_t>& extent, const std::function<Status(const std::vector<llvm::Value*>&)>& body);
  Status if_then(llvm::Value* cond, const std::function<Status()>& then_body,
                 const std::function<Status()>& else_body = nullptr);
  /// Record runtime error `code` (reported when the launch ends) when cond is true.
  void flag_error(llvm::Value* cond, RuntimeError code);

  /// Alias metadata: global tensors (which may alias each other), each shared or fragment
  /// buffer, and the scratch region are told apart so loops vectorise without runtime checks.
  void annotate(llvm::Instruction* inst, int alias);
  int scratch_alias() const { return scratch_alias_; }

  llvm::Value* elem_ptr(const Buffer& buf, llvm::Value* linear);
  llvm::Value* load_raw(const Buffer& buf, llvm::Value* linear);
  void store_raw(const Buffer& buf, llvm::Value* linear, llvm::Value* raw);
  Val load(const Buffer& buf, llvm::Value* linear);
  void store(const Buffer& buf, llvm::Value* linear, Val v);
  /// Row-major linear index of coords (one per dimension) in a buffer.
  llvm::Value* linear_index(const Buffer& buf, const std::vector<llvm::Value*>& coords);
  /// 0 <= c < dim for every coordinate (an i1).
  llvm::Value* in_bounds(const Buffer& buf, const std::vector<llvm::Value*>& coords);

  /// Scratch memory in the arena for the duration of one op (or one parallel loop): take
  /// returns a pointer, release(mark) gives back everything taken since mark.
  uint64_t scratch_mark() const { return scratch_top_; }
  llvm::Value* scratch(uint64_t bytes);
  void scratch_release(uint64_t mark) { scratch_top_ = mark; }
  /// A row-major buffer of constant shape (base and alias scope left to the caller).
  Buffer* constant_buffer(const std::string& name, ir::Scope scope, DType dtype, const std::vector<int64_t>& shape);
  /// A buffer of constant shape in scratch memory.
  Buffer* scratch_buffer(const std::string& name, DType dtype, const std::vector<int64_t>& shape, ir::Scope scope);

  // --- dtype conversions (Convert.cpp); raw values may be scalars or vectors ------------
  llvm::Type* storage_type(DType d);
  llvm::Type* kind_type(VK k);
  Val decode(DType d, llvm::Value* raw);
  llvm::Value* encode(DType d, Val v);
  Val convert(Val v, VK to);
  /// cast<d>(v): v rounded to d, as the kind an element of d loads as.
  Val round_to(DType d, Val v);
  /// The bits `x` has when stored as d (constant folding through core/DType.h).
  llvm::Constant* encoded_constant(DType d, double x);

  // --- math on f32 and f64 values (MathFns.cpp) ---------------------------------------
  llvm::Value* exp(llvm::Value* x);
  llvm::Value* exp2(llvm::Value* x);
  llvm::Value* log(llvm::Value* x);
  llvm::Value* tanh(llvm::Value* x);
  llvm::Value* log2(llvm::Value* x);
  llvm::Value* log1p(llvm::Value* x);
  llvm::Value* erf(llvm::Value* x);
  llvm::Value* sigmoid(llvm::Value* x);
  /// max and min of floats as ir/OpList.h defines them (IEEE 754-2019 maximumNumber and
  /// minimumNumber: -0 < +0, a NaN loses to a number), on scalars and vectors alike.
  llvm::Value* max_number(llvm::Value* x, llvm::Value* y);
  llvm::Value* min_number(llvm::Value* x, llvm::Value* y);

  // --- expressions (Expr.cpp) ---------------------------------------------------------
  /// The current element of a map: a bare buffer name in an expression reads here.
  struct MapIndex {
    llvm::Value* flat = nullptr;           ///< when no operand broadcasts: the linear index
    std::vector<llvm::Value*> coords;      ///< otherwise: one per dimension
  };
  Result<Val> expr(const ir::Expr& e);
  Result<Val> expr_as(const ir::Expr& e, VK k);
  /// The bits a store, fill or map writes for `e` into an element of dtype d. A literal is
  /// its exact (f64) value rounded once to d, as the reference stores it; anything else is
  /// computed in its kind and encoded.
  Result<llvm::Value*> stored_bits(const ir::Expr& e, DType d);
  Result<llvm::Value*> index_expr(const ir::Expr& e);
  const MapIndex* map_index = nullptr;

  // --- statements ---------------------------------------------------------------------
  Status block(const ir::Block& blk);
  Status stmt(const ir::Stmt& s);
  Status emit_alloc(const ir::Stmt& s);
  Status emit_copy(const ir::Stmt& s);          // TileOps.cpp
  Status emit_fill(const ir::Stmt& s);          // TileOps.cpp
  Status emit_atomic_add(const ir::Stmt& s);    // TileOps.cpp
  Status emit_map(const ir::Stmt& s);           // TileOps.cpp
  Status emit_reduce(const ir::Stmt& s);        // Reduce.cpp
  Status emit_scan(const ir::Stmt& s);          // Scan.cpp
  Status emit_gemm(const ir::Stmt& s);          // Gemm.cpp
  Status emit_store(const ir::Stmt& s);         // Expr.cpp
  Status emit_for(const ir::Stmt& s);
  Status emit_parallel(const ir::Stmt& s);
  Status emit_if(const ir::Stmt& s);

  // gemm pieces (Gemm.cpp, Microkernel.cpp)
  Status gemm_generic(const ir::Stmt& s, Buffer& a, Buffer& b, Buffer& c);
  Status gemm_fast(const ir::Stmt& s, Buffer& a, Buffer& b, Buffer& c);
  struct MicroTile {
    int mr = 0;            ///< rows
    int nv = 0;            ///< columns in vectors
    int vw = 0;            ///< lanes per vector
    int64_t k = 0;         ///< depth
    bool accumulate = false;
    int64_t ldc = 0;       ///< row stride of C in elements
    llvm::Value* a = nullptr;  ///< packed A: k-major panel, mr floats per k (a_stride apart)
    int64_t a_k_stride = 0;    ///< elements between consecutive k
    int64_t a_row_stride = 0;  ///< elements between consecutive rows
    int a_alias = -1;
    llvm::Value* b = nullptr;  ///< packed B panel: nv * vw floats per k, contiguous
    llvm::Value* c = nullptr;  ///< C tile (f32), row-major with ldc
    int c_alias = -1;
    int64_t n_valid = 0;   ///< columns of C to store (<= nv * vw)
  };
  void microkernel(const MicroTile& t);

  // --- names ---------------------------------------------------------------------------
  Buffer* find_buffer(const std::string& name);
  Result<Val> find_var(const std::string& name);
  void push_scope();
  void pop_scope();
  void bind_var(const std::string& name, Val v) { vars_.back()[name] = v; }
  void bind_buffer(Buffer* buf) { bufs_.back()[buf->name] = buf; }
  ir::BufferMap visible_buffers(const ir::Stmt& s);

private:
  Status emit_entry_prologue(llvm::Value* launch);
  Status plan_arena();
  void make_alias_scopes(int count);

  std::deque<Buffer> storage_;
  std::vector<std::map<std::string, Val>> vars_;
  std::vector<std::map<std::string, Buffer*>> bufs_;
  std::map<std::string, uint64_t> arena_offset_;  ///< top-level shared and fragment allocs
  llvm::Value* arena_ = nullptr;
  llvm::Value* err_ = nullptr;  ///< alloca i32: the first runtime error of this call
  llvm::BasicBlock* entry_block_ = nullptr;
  uint64_t scratch_base_ = 0;
  uint64_t scratch_top_ = 0;
  uint64_t scratch_peak_ = 0;
  int scratch_alias_ = 0;
  std::vector<llvm::MDNode*> scope_lists_;    ///< per alias index: !{scope}
  std::vector<llvm::MDNode*> noalias_lists_;  ///< per alias index: every other scope
};

}  // namespace tegula::cpu
