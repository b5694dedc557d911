/// \file
/// The generator's private state, shared by its source files: KernelGen.cpp (setup,
/// buffers, statements and loops), Exprs.cpp (expressions), TileOps.cpp (copy, fill, map,
/// atomic_add), Reduce.cpp and Gemm.cpp.
///
/// How the lowered form maps onto SPIR-V:
///  - a fragment is a Function array of registers per invocation, one entry per value slot
///    of its distribution; slot loops are unrolled, so entries are addressed by constants;
///  - a shared buffer is a Workgroup array of its storage type, addressed by the exact
///    SharedLayout formula (padding, blocking, swizzle);
///  - a global tensor is a storage-buffer runtime array of its storage type;
///  - an op runs over an "exec" distribution (the fragment's layout or the op's free plan):
///    thread coordinates are computed once per op from the invocation index, value
///    coordinates are constants, and slots whose coordinates fall outside are skipped
///    (statically when no thread can reach them);
///  - writes to shared or global memory from a distribution that replicates threads are
///    made by the first copy only, so every element is written (or added) once.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/Analysis.h"
#include "ir/IR.h"
#include "ir/lower/Distribution.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/PackedTiles.h"
#include "ir/lower/SharedLayout.h"
#include "plugins/vulkan/codegen/CodegenTarget.h"
#include "plugins/vulkan/codegen/Convert.h"
#include "plugins/vulkan/codegen/Generate.h"
#include "plugins/vulkan/spirv/Builder.h"

namespace tegula::vulkan {

using spv::T;
using spv::Value;

/// A buffer in scope.
struct Buf {
  std::string name;
  ir::Scope scope = ir::Scope::Global;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;  ///< global: -1 for symbolic dims (see dims)
  T elem = T::F32;             ///< storage type (global, shared) or register type (fragment, local)
  uint32_t var = 0;            ///< the variable holding it
  uint32_t elem_type = 0;      ///< type id of one element
  // Global tensors.
  uint32_t word_var = 0;          ///< a u32 view of the same binding (atomics on 16-bit data)
  uint32_t offset_member = 0;     ///< push-constant member holding the element offset
  Value offset;                   ///< I32 element offset of the tensor in its buffer
  std::map<uint32_t, uint32_t> views;  ///< bytes -> a view of the binding as u32, uvec2 or uvec4
  uint32_t binding = 0;
  std::vector<Value> dims;        ///< I32, one per dimension
  bool read_only = false;         ///< no op writes it (its blocks are NonWritable)
  // Shared buffers.
  ir::SharedLayout layout;
  int64_t stage_elems = 0;
  /// A packed tile (layout.words, ir/lower/PackSharedTiles.cpp): declared as 16-byte words,
  /// written only by 16-byte vector copies from global memory and read only by
  /// cooperative-matrix loads (Packed.cpp).
  bool packed = false;
  uint32_t word_type = 0;  ///< uvec4, when packed
  /// A double-buffered tile (DoubleBuffer.cpp, layout.stages=2 by the lowering's plan) holds
  /// two stages; accesses go to the stage starting at this element (I32), which the loop
  /// sets. Unset for every other tile.
  Value stage_base;
  // Fragments.
  ir::Distribution dist;
  int64_t slots = 0;
  // Opaque fragments (cooperative matrices): the rm x rn matrices this subgroup holds.
  bool opaque = false;
  const CoopmatShape* coop = nullptr;
  int64_t gm = 1, gn = 1, rm = 1, rn = 1;
  uint32_t mat_type = 0;       ///< the accumulator's OpTypeCooperativeMatrixKHR
  T comp = T::F32;             ///< its component type
  std::vector<uint32_t> mats;  ///< Function variables, matrix (i, j) at i + rm * j
  bool workgroup = false;      ///< one Workgroup-scope matrix (WorkgroupMatrix.cpp)
  /// A shared tile whose only writer and reader were forwarded (layout.forwarded): it has no
  /// variable; the gemm loads the copy's source instead.
  bool forwarded = false;
};

/// A distribution bound to this invocation: thread coordinates per dimension (I32) and the
/// constant value coordinates per slot.
struct Exec {
  ir::Distribution dist;
  int rank = 0;
  std::vector<Value> tc;           ///< per dimension
  std::vector<int64_t> tc_max;     ///< the largest thread coordinate per dimension
  bool replicated = false;         ///< some thread factor replicates
  Value primary;                   ///< Bool: every replicating thread digit is 0
  std::vector<std::vector<int64_t>> vc;  ///< per slot, per dimension
  int64_t slots() const { return int64_t(vc.size()); }
};

class KernelGen {
public:
  KernelGen(const ir::Kernel& k, const CodegenTarget& t);
  Result<GeneratedShader> run();

  // --- the module: plan, then emit in module order (KernelGen.cpp) -------------------------
  /// What the kernel needs of the module, found before anything is emitted.
  struct ModulePlan {
    bool any8 = false, any16 = false, any64 = false;  ///< dtypes of 1, 2 bytes; f64
    bool coop = false;                                ///< opaque fragments: the Vulkan memory model
    std::set<std::string> atomic_targets;             ///< tensors atomic_add writes
    bool element_access = false;  ///< an element load or store of a tensor: the fault word
    ir::KernelPlan kernel;                            ///< the lowered kernel's lower.* plan
  };
  ModulePlan plan_module();
  /// The interface (declare_interface) and the word views atomic CAS loops need.
  Status emit_interface(const ModulePlan& mp);
  /// The entry function: block indices, push constants, tensor shapes and the body.
  Result<uint32_t> emit_main(const ModulePlan& mp);
  /// bx, by, bz from the dispatch's workgroup and the push constants' block base (and, for a
  /// rasterised grid, the whole grid's counts).
  void emit_block_indices(int64_t raster, const Value* block_base, const Value* grid_count);
  /// Whether the lowering's lower.raster remaps this kernel's block order (a 2-D grid).
  bool rasterised(int64_t raster) const;
  /// The entry point, its execution modes and the interface's last fields.
  Status emit_entry_point(uint32_t main_fn);

  // --- setup (KernelGen.cpp) --------------------------------------------------------
  Status declare_interface(int64_t raster);
  Status declare_alloc(const ir::Stmt& s);
  Buf* find_buf(const std::string& name);

  // --- statements (KernelGen.cpp) -----------------------------------------------------
  Status gen_block(const ir::Block& b);
  Status gen_stmt(const ir::Stmt& s);
  Status gen_for(const ir::Stmt& s);
  Status gen_parallel(const ir::Stmt& s);
  Status gen_if(const ir::Stmt& s);
  Status gen_store(const ir::Stmt& s);

  // --- tile ops (TileOps.cpp) ------------------------------------------------------------
  Status gen_copy(const ir::Stmt& s, bool atomic);
  /// A raw global -> shared copy moving plan.vec elements per access (Copies.cpp); false
  /// when the plan does not allow it.
  bool gen_vector_copy(const ir::Stmt& s, Buf& src, Buf& dst, const Exec& e, const std::vector<int64_t>& extent,
                       const std::vector<Value>& so, const std::vector<Value>& dso, double pad);
  uint32_t vector_view(Buf& b, uint32_t bytes);

  /// One 4-, 8- or 16-byte load of `vec` consecutive elements at element `index` as u32
  /// words (u32, uvec2 or uvec4); `pad` in every element when `inside` is false.
  Value load_words(Buf& src, Value index, Value inside, int64_t vec, double pad);
  /// Whether every element of the tile `t` of a copy (of the copy's extent) lies inside
  /// tensor `b` for every value its origin can take, as lowering proved it (the side's
  /// plan.inbounds, every dimension; ProveInBounds.cpp): its accesses then need no bounds test.
  bool tile_within(const ir::TileRef& t, const Buf& b) const;
  /// The raw elements of a word vector of `src`'s dtype.
  std::vector<Value> unpack_words(Value words, uint32_t count, DType d, T elem);

  // --- packed shared tiles (Packed.cpp) ---------------------------------------------------
  /// Whether a global -> shared copy moves whole 16-byte words into aligned positions (the
  /// lowering's rule, ir/lower/PackedTiles.h).
  static bool copies_whole_words(const ir::Stmt& s, const ir::Distribution& dist, const std::vector<int64_t>& extent,
                                 const Buf& src, const Buf& dst) {
    return ir::copies_whole_words(s, dist, extent, src.dtype, src.shape, dst.dtype);
  }
  /// A pointer to the 16-byte word holding shared element `index` (a multiple of the
  /// elements per word).
  uint32_t packed_ptr(const Buf& b, Value index);
  /// The elements per 16-byte word of a packed tile.
  static uint32_t per_word(const Buf& b) { return 16 / uint32_t(dtype_size(b.dtype)); }
  /// Pack raw 8- or 16-bit elements (storage type) into a uvec4.
  Value pack_word(const std::vector<Value>& raws, DType d);

  // --- register prefetching in pipelined loops (Prefetch.cpp) --------------------------
  struct RegPrefetch {
    const ir::Stmt* copy = nullptr;
    size_t index = 0;  ///< position in the loop body
    Buf* src = nullptr;
    Buf* dst = nullptr;
    std::vector<int64_t> extent;
    Exec e;
    int64_t vec = 1;
    double pad = 0;
    std::vector<uint32_t> regs;  ///< per slot, the element loaded ahead (storage type);
                                 ///< for a packed tile, per word (slot / vec), a uvec4
  };
  /// The registers and thread binding of each copy the loop's plan prefetches through
  /// registers (plan.engine=registers), in body order.
  Status bind_register_prefetch(const ir::Stmt& loop, const ir::PipelinePlan& plan, std::vector<RegPrefetch>& out);
  /// Load the copy's elements for the iteration whose loop variable is `k` into registers.
  Status prefetch_load(RegPrefetch& p, const std::string& var, Value k);
  /// Store the registers into the shared tile (the copy, at its place in the body).
  Status prefetch_store(RegPrefetch& p);

  // --- double-buffered shared tiles (DoubleBuffer.cpp) ------------------------------------
  /// A loop planned with two stages of its register-prefetched tiles: one barrier per
  /// iteration instead of two.
  Status gen_double_buffered_loop(const ir::Stmt& s, Value lo, Value hi, std::vector<RegPrefetch>& ahead);
  Status gen_fill(const ir::Stmt& s);
  Result<Value> fill_value(const ir::Expr& e, DType d);
  Status gen_map(const ir::Stmt& s);
  Status gen_reduce(const ir::Stmt& s);  // Reduce.cpp
  Status gen_scan(const ir::Stmt& s);    // Scan.cpp
  Status gen_gemm(const ir::Stmt& s);    // Gemm.cpp

  // --- cooperative matrices (Coopmat.cpp) ------------------------------------------------
  Status declare_opaque(Buf& b, const ir::Stmt& alloc);
  // Workgroup-scope matrices (WorkgroupMatrix.cpp).
  Status declare_workgroup_matrix(Buf& b, const ir::Stmt& alloc, const WorkgroupCoopmat& w, const std::vector<int64_t>& atom,
                                  const std::vector<int64_t>& groups, const std::vector<int64_t>& repeat);
  void need_workgroup_matrices();
  Value tensor_layout(Buf& tensor, const std::vector<Value>& origin, int64_t rows, int64_t cols, bool clamp);
  uint32_t tensor_base(Buf& tensor);
  Status workgroup_gemm(const ir::Stmt& s, Buf* A, Buf* B, Buf* C);
  Status workgroup_store(const ir::Stmt& s, Buf& frag, Buf& mem);
  Status workgroup_map(const ir::Stmt& s, Buf& b);
  /// An f32 expression over a workgroup matrix: a matrix value (ty Void) or, for a subtree
  /// without the matrix, a scalar.
  Result<Value> workgroup_arithmetic(const ir::Expr& e, Buf& b);
  /// How many iterations of a pipelined loop one pass of the generated loop runs.
  int64_t workgroup_unroll(const ir::Stmt& loop);
  Status gen_gemm_coopmat(const ir::Stmt& s, Buf* A, Buf* B, Buf* C);
  Status opaque_fill(Buf& b, Value value);
  /// Whole-fragment copies through the subgroup's staging tile: out to shared or global
  /// (masked), or in from them (pad outside).
  Status opaque_copy(const ir::Stmt& s, Buf* src, Buf* dst, const std::vector<int64_t>& extent);
  Status opaque_map(const ir::Stmt& s, Buf& b);
  /// The subgroup's origin (row, col) of matrix (i, j), and whether it is the first copy of
  /// its group (replicated subgroups repeat the work but do not write memory).
  struct GroupPos {
    Value row0, col0, primary, lane;
  };
  GroupPos group_pos(const Buf& b);
  uint32_t staging_ptr(const Buf& b, Value element);
  Value coop_load(uint32_t type, uint32_t ptr, Value layout, Value stride);
  void coop_store(uint32_t ptr, Value mat, Value layout, Value stride);
  T coop_component(DType d, bool signed_int);

  // --- distributions (KernelGen.cpp) -----------------------------------------------------
  Exec bind(const ir::Distribution& d, int rank);
  Value thread_digit(int64_t radix, int64_t size);
  /// 1: every thread's coordinates of slot v are inside `extent`; 0: none; -1: depends.
  int slot_inside(const Exec& e, int64_t v, const std::vector<int64_t>& extent) const;
  std::vector<Value> slot_coords(const Exec& e, int64_t v);
  Value coords_inside(const std::vector<Value>& c, const std::vector<int64_t>& extent);
  /// For each slot of `exec` (over exec_shape), the slot of `other` (over other_shape, whose
  /// size-1 dimensions broadcast) holding the same element in every thread; -1 where the
  /// slot is never inside. An error when the slot depends on the thread.
  Result<std::vector<int64_t>> map_slots(const ir::Distribution& exec, const std::vector<int64_t>& exec_shape,
                                         const ir::Distribution& other, const std::vector<int64_t>& other_shape);
  /// Run `body` for every slot of `e` inside `extent`, guarded by its inside test.
  void for_slots(const Exec& e, const std::vector<int64_t>& extent,
                 const std::function<void(int64_t v, const std::vector<Value>& coords)>& body);

  // --- element access (Access.cpp) ----------------------------------------------------
  /// Global: the linear element index (offset included) and whether coords are inside.
  Value global_index(const Buf& b, const std::vector<Value>& coords);
  Value global_inside(const Buf& b, const std::vector<Value>& coords);
  Value shared_index(const Buf& b, const std::vector<Value>& coords);
  uint32_t element_ptr(const Buf& b, Value index);  ///< global, shared or local
  Value load_raw(const Buf& b, Value index);
  void store_raw(const Buf& b, Value index, Value raw);
  Value read_slot(const Buf& b, int64_t slot);
  void write_slot(const Buf& b, int64_t slot, Value value);  ///< rounds to the dtype
  /// Read an element of a shared or global buffer at absolute coords (globals masked: `pad`
  /// outside), as the dtype's value type. A nonzero `fault` (fault_site) is an element
  /// access of the program: outside its tensor it also writes the fault word.
  Value read_memory(const Buf& b, const std::vector<Value>& coords, double pad, uint32_t fault = 0);
  /// Write (encode) an element of a shared or global buffer (globals masked; `fault` as above).
  void write_memory(const Buf& b, const std::vector<Value>& coords, Value value, uint32_t fault = 0);
  /// The fault number of an element access of a tensor (Generate.h: the fault word), one
  /// per access as written ("store to Y[i + N]") however often its code is emitted.
  uint32_t fault_site(const std::string& buffer, const std::vector<ir::Expr>& index, bool store);
  /// The `else` of a masked element access: record `fault` in the fault word.
  void record_fault(uint32_t fault);
  void atomic_add_global(const Buf& b, const std::vector<Value>& coords, Value value);
  /// Read the raw storage value (no decode) of a shared or global element; `pad` (a value of
  /// the dtype) outside a global tensor. It is what a store of the element's value writes
  /// (Conversions::restore), so raw copies give what the IR's load-then-store gives.
  Value read_memory_raw(const Buf& b, const std::vector<Value>& coords, double pad);
  void write_memory_raw(const Buf& b, const std::vector<Value>& coords, Value raw);
  /// The storage encoding of a constant, as a constant.
  Value raw_constant(DType d, double v);
  std::vector<Value> add_origin(const std::vector<Value>& origin, const std::vector<Value>& coords);

  // --- expressions (Exprs.cpp) --------------------------------------------------------
  /// The element a map's bare buffer name refers to: (buffer, slot or coords).
  struct MapCtx {
    std::vector<Value> coords;  ///< the map's element
    /// Whether `coords` are the element's own (idx reads them): not in an opaque matrix's
    /// map, whose coords are the matrix's origin (select_instructions keeps maps with idx
    /// off opaque matrices).
    bool element_coords = false;
    std::map<std::string, int64_t> slot_of;  ///< fragment operand -> its slot for this element
    std::map<std::string, Value> opaque_value;  ///< opaque fragment -> this element's value
  };
  Result<Value> expr(const ir::Expr& e, const MapCtx* map = nullptr);
  Result<Value> expr_as(const ir::Expr& e, T to, const MapCtx* map = nullptr);
  Result<Value> var_value(const std::string& name);
  /// The register type of an expression type.
  static T type_of(const ir::Type& t);
  /// Convert between register types (numbers, bools).
  Value cast_value(Value v, T to);
  Result<Value> load_expr(const ir::Expr& e, const MapCtx* map);
  /// Whether an expression reads a tensor element: such an operand of select, && or || is
  /// evaluated only where the IR evaluates it (lazy_select), so a guarded load outside its
  /// tensor raises no fault (Generate.h).
  bool reads_tensor(const ir::Expr& e);
  /// cond ? a : b, evaluating only the arm taken.
  Result<Value> lazy_select(Value cond, const ir::Expr& a, const ir::Expr& b, T ty, const MapCtx* map);
  Result<Value> tile_expr(const ir::Expr& e, const MapCtx* map);
  Result<Value> unary_expr(const ir::Expr& e, const MapCtx* map);
  Result<Value> binary_expr(const ir::Expr& e, const MapCtx* map);
  Result<std::vector<Value>> tile_origin(const ir::TileRef& t);
  /// Integer + - * neg abs on element values, computed so that a store saturates as the
  /// IR's does (IntSat.cpp).
  static bool saturates(const ir::Expr& e);
  Result<Value> saturating_expr(const ir::Expr& e, const MapCtx* map);
  Value saturating_unary(ir::UnaryOp op, Value x);
  Value saturating_binary(ir::BinaryOp op, Value a, Value b);
  /// Bit operators and bitcast (Bits.cpp); word_operand is an operand taken modulo 2^32.
  Result<Value> word_operand(const ir::Expr& e, const MapCtx* map);
  Result<Value> bit_not_expr(const ir::Expr& e, const MapCtx* map);
  Result<Value> bitwise_expr(const ir::Expr& e, const MapCtx* map);
  Result<Value> bitcast_expr(const ir::Expr& e, const MapCtx* map);

  Status fail(const SourceLoc& loc, const std::string& what);

  // --- state ----------------------------------------------------------------------------
  const ir::Kernel& k_;
  const CodegenTarget& t_;
  spv::Module m_;
  spv::Builder b_{m_};
  Conversions cv_{b_};
  ShaderInterface iface_;
  uint32_t fault_var_ = 0;  ///< the fault word's storage buffer, when the kernel binds it

  std::deque<Buf> bufs_;
  std::vector<std::map<std::string, Buf*>> buf_scopes_;
  struct Var {
    Value value;        ///< an immutable value, or
    uint32_t ptr = 0;   ///< a Function variable loaded on use
    T ty = T::I32;
  };
  std::vector<std::map<std::string, Var>> var_scopes_;
  uint32_t push_var_ = 0;
  std::vector<uint32_t> push_member_types_;
  uint32_t in_workgroup_id_ = 0, in_local_index_ = 0;
  Value tid_;   ///< U32 invocation index
  bool uses_subgroup_ = false;
  bool uses_coopmat_ = false;
  std::deque<CoopmatShape> wg_shapes_;                  ///< the workgroup matrices' shapes (Buf::coop points here)
  std::map<std::string, const ir::Stmt*> forwarded_;   ///< forwarded tile -> the copy that staged it (plan.forward)
  /// Tile operand -> whether lowering proved the whole tile inside its tensor (tile_within).
  mutable std::optional<std::map<const ir::TileRef*, bool>> within_;
  int64_t tensor_align_ = 0;      ///< lower.tensor_align: every tensor starts on this many bytes
  bool packed_misuse_ = false;    ///< an element access reached a packed tile (a generator bug)
  uint32_t smul_result_type_ = 0;  ///< struct { i32 lo; i32 hi; } of OpSMulExtended
  uint32_t staging_var_ = 0;    ///< Workgroup staging for cooperative matrices
  T staging_comp_ = T::F32;
  int64_t staging_tile_ = 0;    ///< elements per subgroup
};

}  // namespace tegula::vulkan
