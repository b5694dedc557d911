/// \file
/// The AMDGPU code generator: a lowered kernel (ir::read_lowered) becomes an LLVM module for
/// amdgcn-amd-amdhsa with one amdgpu_kernel function, written per thread (per work-item).
///
/// How the tile IR maps to a wave64 workgroup: the block is a workgroup of `threads`
/// work-items (thread index llvm.amdgcn.workitem.id.x, block indices
/// llvm.amdgcn.workgroup.id.x/y/z); global tensors are addrspace(1) pointers; shared buffers
/// are regions of one LDS array (addrspace(3)) at the offsets `place_shared` wrote, with the
/// exact element formula of ir/lower/SharedLayout.h (blocking, padding, swizzle); a fragment
/// is a private array per thread (addrspace(5)) indexed by constant slots, which LLVM
/// promotes to VGPRs; `barrier` is a workgroup release fence, s_barrier and an acquire fence.
/// Every tile op runs where its plan says (ir/lower/README.md): a fragment plan walks the
/// fragment's own slots, a free plan the (thread, value) pairs of plan.threads. Nothing is
/// decided here that the lowering decided: a plan this generator does not implement is
/// refused with Unsupported and the reason, never emitted differently.
///
/// Arithmetic is f32 for f32/f16/bf16 values and f64 for f64 ones (ir::Type decides), as on
/// every backend; a store rounds to its dtype (fptrunc is round-to-nearest-even; integer
/// stores round, saturate and send NaN to 0 as core/DType.h does).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "core/DType.h"
#include "core/Status.h"
#include "ir/IR.h"
#include "ir/lower/Distribution.h"
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedLayout.h"
#include "targets/Target.h"

namespace tegula::hip {

/// How a value is held: integers (Index) as i64, booleans as i1, floats as f32 or f64.
enum class VK : uint8_t { Index, F32, F64, Bool };

struct Val {
  llvm::Value* v = nullptr;
  VK k = VK::Index;
};

struct Buffer {
  std::string name;
  ir::Scope scope = ir::Scope::Global;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;      ///< -1 for a symbolic (global) dimension
  std::vector<llvm::Value*> dims;  ///< i64
  llvm::Value* base =
      nullptr;  ///< global: ptr addrspace(1); shared: LDS byte address (ptr addrspace(3)); fragment/local: private array
  ir::SharedLayout layout;  ///< shared
  ir::Distribution dist;    ///< fragment: layout.threads/values
  int64_t slots = 0;        ///< fragment: values per thread

  int rank() const { return int(shape.size()); }
};

/// One element a thread handles in a tile op: its coordinates in the op's extent, whether it
/// is real (not padding), and the slot it is in the plan's fragment (-1 for free plans).
struct Element {
  std::vector<llvm::Value*> coords;
  llvm::Value* valid = nullptr;  ///< i1, or null: always
  int64_t slot = -1;
};

class Emitter {
public:
  Emitter(const ir::Kernel& kernel, const TargetDescription& target, llvm::LLVMContext& context, llvm::Module& module);
  Status run();

  llvm::LLVMContext& ctx;
  llvm::Module& mod;
  llvm::IRBuilder<> b;
  const ir::Kernel& kernel;
  const TargetDescription& target;
  llvm::Type *i1, *i8, *i16, *i32, *i64, *f16, *bf16, *f32, *f64;
  llvm::PointerType *global_ptr, *lds_ptr, *private_ptr;

  llvm::Value* ci(int64_t v) { return llvm::ConstantInt::get(i64, v, true); }
  llvm::Function* function() { return b.GetInsertBlock()->getParent(); }

  // --- control (Emitter.cpp) --------------------------------------------------------------
  Status loop(llvm::Value* lo, llvm::Value* hi, const std::function<Status(llvm::Value*)>& body);
  Status if_then(llvm::Value* cond, const std::function<Status()>& then_body,
                 const std::function<Status()>& else_body = nullptr);
  void barrier();
  llvm::Value* thread_id() const { return tid_; }

  // --- dtypes (Emitter.cpp) ---------------------------------------------------------------
  Result<llvm::Type*> storage_type(DType d);
  Result<Val> decode(DType d, llvm::Value* raw);
  Result<llvm::Value*> encode(DType d, Val v);
  Val convert(Val v, VK to);
  static VK kind_of(const ir::Type& t);
  static VK kind_of(DType d);

  // --- buffers (Emitter.cpp) --------------------------------------------------------------
  /// The element's address: global and shared buffers by coordinates (shared through the
  /// layout's formula), fragment and local ones by slot / linear index.
  Result<llvm::Value*> address(const Buffer& buf, const std::vector<llvm::Value*>& coords);
  llvm::Value* slot_address(const Buffer& buf, int64_t slot);
  llvm::Value* in_bounds(const Buffer& buf, const std::vector<llvm::Value*>& coords);
  Result<Val> load_at(const Buffer& buf, llvm::Value* address);
  Status store_at(const Buffer& buf, llvm::Value* address, Val v);
  /// A load only where `inside` holds (llvm.masked.load, which the backend turns into a
  /// branch); 0 elsewhere.
  Result<Val> masked_load(const Buffer& buf, llvm::Value* address, llvm::Value* inside);
  /// The same for the stored bits, `otherwise` (null: zero bits) where `inside` fails.
  Result<llvm::Value*> masked_load_raw(const Buffer& buf, llvm::Value* address, llvm::Value* inside,
                                       llvm::Constant* otherwise);
  /// The bits `x` has stored as d (core/DType.h's rounding).
  Result<llvm::Constant*> encoded_constant(DType d, double x);
  llvm::Value* decode_e4m3(llvm::Value* raw);
  /// Rounding to f16, bf16, tf32, e4m3 and e5m2 (Narrow.cpp).
  Result<llvm::Value*> encode_narrow(DType d, Val v);
  /// The other narrow floats (FNUZ fp8, fp6, fp4, e8m0, ue4m3) from core/DType.h's
  /// FloatFormat, one routine each way (NarrowGeneric.cpp); saturating stores.
  llvm::Value* encode_generic(DType d, Val v);
  llvm::Value* decode_generic(DType d, llvm::Value* raw);
  /// An f64 rounded to `man` mantissa bits (smallest normal exponent `emin`), ties to even.
  llvm::Value* round_f64_to(llvm::Value* x, int man, int emin);

  // --- expressions (Expr.cpp) -------------------------------------------------------------
  /// The element of a tile op being computed: a bare buffer name reads it, idx(a) is coords[a].
  struct Current {
    const Element* elem = nullptr;
    const std::vector<int64_t>* extent = nullptr;
    const ir::Stmt* stmt = nullptr;
    const ir::CopyPlan* plan = nullptr;
  };
  Result<Val> expr(const ir::Expr& e);
  Result<Val> expr_as(const ir::Expr& e, VK k);
  Result<Val> unary_expr(const ir::Expr& e);
  Result<Val> binary_expr(const ir::Expr& e);
  /// exp, exp2, log, log2, log1p, tanh, erf and sigmoid of a float value (Math.cpp): the
  /// AMDGPU backend's own expansions for f32 exp, exp2, log and log2, the SDK's
  /// recipes (plugins/support/MathRecipes.h) for the rest; null for any other function.
  llvm::Value* math_function(ir::UnaryOp op, Val x);
  /// bitcast<to>(x) of a value x of dtype `from` (ir/OpList.h, ir/BitOps.h bitcast_value).
  Result<Val> bitcast_value(DType from, DType to, Val x);
  const Current* current = nullptr;

  // --- statements (Ops.cpp) ---------------------------------------------------------------
  Status block(const ir::Block& blk);
  Status stmt(const ir::Stmt& s);
  Status emit_alloc(const ir::Stmt& s);
  Status emit_tile_op(const ir::Stmt& s);  // copy, fill, map
  Status emit_parallel(const ir::Stmt& s);
  Status emit_store(const ir::Stmt& s);
  Status emit_for(const ir::Stmt& s);
  Status emit_if(const ir::Stmt& s);
  Status emit_gemm(const ir::Stmt& s);    // Gemm.cpp
  Status emit_reduce(const ir::Stmt& s);  // Reduce.cpp
  Status emit_mfma(const ir::Stmt& s, const ir::GemmPlan& plan, Buffer* a, Buffer* b, Buffer* c);  // Mfma.cpp
  Status emit_scan(const ir::Stmt& s);    // Scan.cpp
  /// The elements this thread handles under a plan, over the op's extent.
  Result<std::vector<Element>> elements(const ir::Stmt& s, const ir::CopyPlan& plan,
                                        const std::vector<int64_t>& extent);
  /// Where operand `ref` holds element `e` of an op: its address and whether it is inside the tensor.
  struct Access {
    llvm::Value* address = nullptr;
    llvm::Value* inside = nullptr;  ///< i1 or null (always)
  };
  Result<Access> operand(const ir::TileRef& ref, const Element& e, const std::vector<int64_t>& extent,
                         const ir::CopyPlan& plan, bool proven_inside);

  // --- atomic_add (Atomic.cpp) ----------------------------------------------------------------
  Status emit_atomic(const ir::Stmt& s);
  Status atomic_add_at(const ir::Stmt& s, DType d, llvm::Value* addr, Val v);
  Status atomic_add_by_cas(DType d, llvm::Value* addr, Val v);
  /// i1: this thread is a replica under `dist` (a replicating thread factor's digit is not 0).
  llvm::Value* replica(const ir::Distribution& dist);

  // --- names ------------------------------------------------------------------------------
  Buffer* find_buffer(const std::string& name);
  Result<Val> find_var(const std::string& name);
  void push_scope() {
    vars_.emplace_back();
    bufs_.emplace_back();
  }
  void pop_scope() {
    vars_.pop_back();
    bufs_.pop_back();
  }
  void bind_var(const std::string& name, Val v) { vars_.back()[name] = v; }
  Buffer* new_buffer() { return &storage_.emplace_back(); }
  void bind_buffer(Buffer* buf) { bufs_.back()[buf->name] = buf; }
  llvm::Value* lds() const { return lds_; }
  /// An alloca in the entry block (so LLVM promotes it).
  llvm::Value* entry_alloca(llvm::Type* type, const std::string& name);

private:
  Status prologue(llvm::Function* fn);
  Status raster_blocks(int64_t g, llvm::Value*& bx, llvm::Value*& by);
  std::deque<Buffer> storage_;
  std::vector<std::map<std::string, Val>> vars_;
  std::vector<std::map<std::string, Buffer*>> bufs_;
  llvm::Value* tid_ = nullptr;
  llvm::Value* lds_ = nullptr;
  llvm::BasicBlock* entry_ = nullptr;
};

/// maximumNumber (is_max) or minimumNumber of two floats of one type (ir/OpList.h).
llvm::Value* float_max_min(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, bool is_max);

/// Unsupported: "the hip backend does not implement <what> yet".
Status not_implemented(const ir::Stmt* s, const std::string& what);

}  // namespace tegula::hip
