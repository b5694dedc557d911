/// \file
/// The code generator's private state and helpers, shared by the files of codegen/: one
/// Emitter walks a lowered kernel and writes CUDA C++ text. Conventions of the emitted code:
///
///  - `t` is the thread index; `bx`, `by`, `bz` the (rasterised) block indices, long long.
///  - Index values are long long; float values are float (double for f64 expressions);
///    integer tile elements are int; bool elements are int 0/1.
///  - A fragment is a per-thread register array `f_<name>[slots]`, indexed only by
///    constants: every loop over a distribution's values is unrolled here, at generation
///    time, so each register index is a literal.
///  - Shared buffers live in one dynamic shared allocation (`smem`, aligned to the largest
///    layout alignment); `so_<name>(row, col)` is the byte offset the buffer's SharedLayout
///    gives inside one stage, and `st_<name>` the stage a staged buffer currently uses.
///  - Global tensors are byte pointers `g_<name>` with dimensions `gd_<name>_<i>`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "ir/lower/Distribution.h"
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/SharedPlacement.h"
#include "plugins/cuda/codegen/CodeGen.h"

namespace tegula::cuda::gen {

/// How a value is held in C++.
enum class Rep : uint8_t { F32, F64, I32, I64, Bool };

struct Value {
  std::string code;
  Rep rep = Rep::F32;
};

const char* rep_type(Rep r);
/// The register representation of a fragment or local element of dtype d.
Rep frag_rep(DType d);
/// The representation a decoded memory element of dtype d comes back in.
Rep natural_rep(DType d);
/// The raw storage type of dtype d ("unsigned short", ...).
const char* raw_type(DType d);
/// `v` converted (numerically, without dtype rounding) to `to`.
std::string convert(const Value& v, Rep to);
/// `v` rounded to dtype d, in d's register representation (core/DType.h rules).
Value round_to(const Value& v, DType d);
/// `v` encoded as d's raw storage bits.
std::string encode(const Value& v, DType d);
/// Raw storage bits of dtype d decoded into its natural representation.
Value decode(const std::string& raw, DType d);
/// A float literal of exactly `x` in `rep` (F32 rounds it to float first).
std::string float_literal(double x, Rep rep);
/// A literal of exactly `x` in `rep` (x must be representable in it: see exact_rep).
std::string exact_literal(double x, Rep rep);
/// `rep`, or a wider representation where `x` (a value already rounded to some dtype, such
/// as a copy's pad) would not be exact in it.
Rep exact_rep(double x, Rep rep);
/// The literal `x` rounded once, on the host, to dtype d (core/DType.h), exact in
/// natural_rep(d): the IR's literals carry a full double, so rounding it to float first
/// would round f64 values twice (0.1), overflow (DBL_MAX) or flush (subnormals).
Value literal_value(double x, DType d);
/// The raw bits of x stored as dtype d, as a C literal of raw_type(d).
std::string raw_literal(double x, DType d);

struct Buffer {
  std::string name;
  std::string cname;
  ir::Scope scope = ir::Scope::Global;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  // global
  int arg = -1;
  std::vector<std::string> dims;  ///< long long expressions, outermost first
  std::vector<DimSpec> dim_specs;
  // shared
  ir::SharedLayout layout;
  int64_t offset = 0;       ///< byte offset of stage 0 in smem
  int64_t stage_bytes = 0;
  // fragment
  ir::Distribution dist;
  int64_t slots = 0;
};

struct Side;
struct CopyAccess;
struct CopyValues;
struct ReduceSteps;

/// One group of `n` consecutive elements (along the last dimension) that a thread handles in
/// a tile op: the tile index of the first (C++ int expressions), the condition that they are
/// real elements ("" when always), and, for fragment plans, the exec fragment's slot.
struct Elem {
  std::vector<std::string> idx;
  std::string guard;
  int64_t slot = -1;
  int64_t n = 1;
  std::vector<int64_t> vcoord;  ///< the constant (value) part of the coordinates
};

/// A register operand of a matrix instruction, for one atom.
struct OperandRegs {
  ir::Distribution atom;  ///< (lane, value) -> (x, k) of the atom (x: m for A and C, n for B)
  int64_t values = 0;     ///< values per thread in one atom
  int64_t epr = 1;        ///< elements per 32-bit register (f64: one per .f64 register)
  int64_t regs = 0;
  bool wide = false;      ///< f64: .f64 registers
};

/// How a shared operand reaches an instruction's registers: `count` ldmatrix matrices (0:
/// per-register loads, 32-bit wide where `word_loads`).
struct LdPlan {
  int64_t count = 0;
  bool trans = false;
  std::vector<std::pair<int64_t, int64_t>> origin;  ///< per matrix: stored (row, col) in the atom
  bool word_loads = false;
};

/// Thread-part coordinates of a distribution, declared as C++ ints.
struct ThreadPart {
  std::vector<std::string> names;
  std::vector<int64_t> max;  ///< largest value each can take
};

class Emitter {
public:
  Emitter(const ir::Kernel& kernel, const TargetDescription& target, std::string arch);
  Result<Generated> run();

  // --- output --------------------------------------------------------------------------
  void line(const std::string& s);
  void open(const std::string& s);
  void close(const std::string& tail = "");
  std::string fresh(const std::string& prefix);
  Status unsupported(const ir::Stmt& s, const std::string& what) const;

  // --- names and buffers (Emitter.cpp) -------------------------------------------------
  const Buffer* buffer(const std::string& name) const;
  std::string var_name(const std::string& ir_name) const;
  /// Byte address expression (unsigned char*) of element `coords` of a shared buffer in its
  /// current stage.
  std::string shared_ptr(const Buffer& b, const std::vector<std::string>& coords) const;
  /// The 32-bit shared-window address of the same element.
  std::string shared_addr(const Buffer& b, const std::vector<std::string>& coords) const;
  /// Offset of an element within one stage (the so_ function's body with constants).
  std::string shared_offset_call(const Buffer& b, const std::vector<std::string>& coords) const;
  std::string stage_base(const Buffer& b) const;  ///< "(sbase + st * bytes)" in bytes
  /// Linear element index (long long) of `coords` in a global tensor.
  std::string global_linear(const Buffer& b, const std::vector<std::string>& coords) const;
  ThreadPart thread_part(const ir::Distribution& d, int rank, const std::string& prefix);
  /// The thread-part coordinate expressions for thread index expression `tvar`.
  std::vector<std::string> thread_part_exprs(const ir::Distribution& d, int rank, const std::string& tvar,
                                             std::vector<int64_t>* max = nullptr) const;
  /// A guard that keeps only replica 0 of a free plan's replicated thread factors.
  std::string replica_guard(const ir::Distribution& d) const;
  /// The elements of a tile op: from the exec fragment's layout, or from a free plan.
  Result<std::vector<Elem>> fragment_elems(const ir::Stmt& s, const Buffer& frag, const std::vector<int64_t>& offsets,
                                           const std::vector<int64_t>& extent, int64_t vec);
  Result<std::vector<Elem>> free_elems(const ir::Stmt& s, const ir::Distribution& plan, const std::vector<int64_t>& extent,
                                       int64_t vec);
  /// For each slot of `exec` (a fragment layout over `shape`), the slot of `operand` that
  /// holds the same element in the same thread (dimensions where the operand has size 1
  /// broadcast; `offset` is added to the coordinates first); -1 for padding slots. Errors
  /// when the operand does not hold it in the same thread, or not in the same slot for every
  /// thread.
  Result<std::vector<int64_t>> slot_map(const ir::Stmt& s, const ir::Distribution& exec, const std::vector<int64_t>& shape,
                                        const Buffer& operand, const std::vector<int64_t>& offset = {});

  // --- expressions (Expr.cpp) ----------------------------------------------------------
  /// What a bare buffer name means inside a map: the operand's value at the current element.
  struct MapContext {
    const std::map<std::string, Value>* operands = nullptr;
    /// The element's coordinates in the map's destination (idx): a per-thread base computed
    /// once from the layout, plus this register's constant.
    const std::vector<std::string>* coords = nullptr;
  };
  Result<Value> expr(const ir::Expr& e, const MapContext* map = nullptr);
  Result<Value> bitcast(const ir::Expr& e, const MapContext* map);  ///< bitcast<d>(x) (ir/OpList.h)
  std::string narrow_float_bits(const Value& x, DType d);
  Result<std::string> expr_as(const ir::Expr& e, Rep rep, const MapContext* map = nullptr);
  Result<std::string> index_expr(const ir::Expr& e) { return expr_as(e, Rep::I64); }
  /// The value `e` stores into an element of dtype d (fill, map, store): a literal is rounded
  /// on the host (literal_value); anything else is expr(e).
  Result<Value> value_for(const ir::Expr& e, DType d, const MapContext* map = nullptr);

  // --- element access (Tiles.cpp) ------------------------------------------------------
  /// Read one element of a non-fragment buffer at tile index idx + offsets (masked with
  /// `pad` for global tensors).
  /// `checked`: coordinates may lie outside a shared or local buffer (element loads and
  /// stores in parallel loops): outside reads give 0 and outside writes are dropped.
  Value read_element(const Buffer& b, const std::vector<std::string>& coords, double pad, bool checked = false);
  void write_element(const Buffer& b, const std::vector<std::string>& coords, const Value& v, bool checked = false);
  /// The condition that coords lie inside a buffer ("" when nothing to check).
  std::string inside(const Buffer& b, const std::vector<std::string>& coords) const;

  // --- statements ----------------------------------------------------------------------
  Status block(const ir::Block& b);
  Status stmt(const ir::Stmt& s);
  Status emit_copy(const ir::Stmt& s);        // Tiles.cpp
  // a copy's emit half (its plan: plan_copy_access, TileAccess.h)
  Status emit_copy_reads(const ir::Stmt& s, const Side& src, const CopyAccess& a, CopyValues& v);
  void decode_read_vector(const Side& src, const CopyAccess& a, const std::vector<std::string>& sc, const std::string& rv,
                          std::vector<Value>& vals, std::string& pre);
  Status emit_copy_writes(const Side& dst, const CopyAccess& a, const CopyValues& v);
  std::string encode_write_vector(const Side& dst, int64_t n, const std::vector<Value>& vals);
  void store_global_vector(const Side& dst, const CopyAccess& a, const std::vector<std::string>& dc, const std::string& wv);
  std::string global_address(const Side& side, const std::vector<std::string>& c, int64_t es) const;
  Status emit_fill(const ir::Stmt& s);        // Tiles.cpp
  Status emit_map(const ir::Stmt& s);         // Tiles.cpp
  Status emit_atomic(const ir::Stmt& s);      // Tiles.cpp
  Status emit_reduce(const ir::Stmt& s);      // Reduce.cpp
  Status emit_scan(const ir::Stmt& s);        // Scan.cpp
  // a reduce's plan half (emits nothing; ReduceSteps.h) and emit half
  Result<ReduceSteps> plan_reduce(const ir::Stmt& s, const Buffer& src, const Buffer& dst, const ir::ReducePlan& plan);
  Status plan_reduce_destination(const ir::Stmt& s, const Buffer& dst, const ir::Distribution& X, ReduceSteps& r);
  void emit_reduce_shuffles(const ir::ReducePlan& plan, const ReduceSteps& r);
  void emit_reduce_publish(const ReduceSteps& r, const Buffer& scratch);
  void emit_reduce_cross(const ir::ReducePlan& plan, const ReduceSteps& r, const Buffer* scratch);
  void emit_reduce_through_scratch(const ir::ReducePlan& plan, const ReduceSteps& r, const Buffer* scratch);
  void emit_reduce_store(const Buffer& dst, const ReduceSteps& r);
  Status emit_gemm(const ir::Stmt& s);        // Gemm.cpp
  Status emit_parallel(const ir::Stmt& s);    // Emitter.cpp
  Status emit_store(const ir::Stmt& s);       // Emitter.cpp
  Status emit_loop(const ir::Stmt& s);        // Emitter.cpp
  Status emit_pipelined(const ir::Stmt& s);   // Pipeline.cpp
  void emit_barrier();

  // gemm families
  Status emit_gemm_fma(const ir::Stmt& s, const ir::GemmPlan& p);
  Status emit_gemm_mma_sync(const ir::Stmt& s, const ir::GemmPlan& p, const MatrixInstruction& mi);
  Status emit_gemm_wgmma(const ir::Stmt& s, const ir::GemmPlan& p, const MatrixInstruction& mi);
  Status emit_gemm_tcgen05(const ir::Stmt& s, const ir::GemmPlan& p, const MatrixInstruction& mi);
  /// asm register fences on every accumulator slot, so that no read or write of them moves
  /// across an asynchronous matrix instruction's wait.
  void emit_register_fence(const Buffer& C);
  Result<OperandRegs> operand_regs(const MatrixInstruction& mi, const ir::GemmPlan& p, int which, DType dt) const;
  bool plan_ldmatrix(const OperandRegs& o, const Buffer& X, bool k_contig, const std::vector<std::pair<int64_t, int64_t>>& origins,
                     LdPlan* plan) const;
  /// Declare `name[regs]` and fill it with operand `which` (0: A, 1: B) of atom `a`, k-step
  /// `ks`, for thread `lane` of its group, whose tile starts at `group_x` along M (or N).
  Status emit_operand_regs(const ir::Stmt& s, const ir::GemmPlan& p, const OperandRegs& o, int which, int64_t a, int64_t ks,
                           const std::string& name, const std::string& lane, const std::string& group_x);
  /// The gemm's accumulator and register-operand fragments must be laid out exactly as the
  /// instruction's register convention says (ir/lower/README.md).
  Status check_gemm_layouts(const ir::Stmt& s, const ir::GemmPlan& p, const MatrixInstruction* mi);

  // pipelines (Pipeline.cpp)
  enum class Engine : uint8_t { Bulk, Async, Sync };
  /// How a prefetched copy moves, as the lowering planned it (plan.engine): the bulk tensor
  /// copy engine (its tensor map registered when `map_index` is given, `bytes` the bytes it
  /// delivers), cp.async, or plain stores.
  Result<Engine> engine_of(const ir::Stmt& copy, int64_t* map_index, int64_t* bytes);
  /// What emitting a pipelined loop needs, read off its plan: per body statement whether it
  /// is prefetched and by which engine (and tensor map), the staged buffers, the wgmma gemm
  /// left in flight (if any) and the loop's mbarriers.
  struct PipelineEmit {
    int64_t stages = 1;
    std::vector<bool> is_prefetch;
    std::vector<Engine> engine;
    std::vector<int64_t> map;
    int64_t tx_bytes = 0;
    bool any_async = false, any_bulk = false, any_sync = false;
    std::vector<const Buffer*> staged;
    const ir::Stmt* inflight = nullptr;
    std::string bar0, phase;
  };
  Result<PipelineEmit> plan_pipelined(const ir::Stmt& loop);
  /// The prefetched copies of iteration `iter` into stage `stage`.
  Status emit_pipeline_issue(const ir::Stmt& loop, const PipelineEmit& p, const std::string& iter, const std::string& stage);
  /// The body's other statements.
  Status emit_pipeline_compute(const ir::Stmt& loop, const PipelineEmit& p);
  /// Issue a prefetched copy into the stage the C++ variables st_<buffer> name.
  Status emit_prefetch_copy(const ir::Stmt& s, Engine engine, int64_t map_index, const std::string& bar_addr);
  int64_t tcgen05_columns(const ir::GemmPlan& p);
  /// The mbarriers to initialise: shared byte offset and arrival count.
  std::vector<std::pair<int64_t, int64_t>> mbarrier_inits;

  // --- facts -----------------------------------------------------------------------------
  int sm() const { return sm_; }
  const ir::Kernel& kernel() const { return k_; }
  const TargetDescription& target() const { return target_; }
  int64_t threads() const { return k_.threads; }

  /// Set while emitting a pipelined loop whose gemm may leave wgmma groups in flight.
  bool wgmma_pipelined = false;
  /// Every barrier also fences ordinary shared-memory writes for the async proxy (kernels
  /// that read shared memory through matrix descriptors).
  bool proxy_fence = false;
  bool uses_tmem = false;
  bool uses_wgmma = false;  ///< the f16/bf16 encoders are then plain C (Conversions.inc)
  int64_t tmem_columns = 0;
  std::string tmem_slot;  ///< smem offset of the TMEM address slot (lower.tmem_slot)
  /// A loop's or gemm's mbarriers: `index` names its phase variable, `offset` is where
  /// place_shared put the first one (plan.barriers).
  struct Barriers {
    int64_t index = 0;
    int64_t offset = 0;
  };
  std::map<const ir::Stmt*, Barriers> mbarrier_of;

  KernelInfo info;
  GenOptions options;

  /// Extra device functions the body needs (emitted before the kernel).
  std::string extra_functions;
  /// Tensor arguments that vector or bulk accesses need aligned: arg -> bytes.
  std::map<uint32_t, uint32_t> align_needed;
  void require_align(const Buffer& b, int64_t bytes) {
    if (b.arg < 0 || bytes <= 1) return;
    uint32_t& a = align_needed[uint32_t(b.arg)];
    a = std::max<uint32_t>(a, uint32_t(bytes));
  }
  /// Extent of a copy, fill or atomic_add.
  Result<std::vector<int64_t>> extent_of(const ir::Stmt& s);
  /// Whether `n`-element vectors of a shared buffer's tile are contiguous and aligned for
  /// every element group of distribution `d` (constant tile offsets `off`).
  bool shared_vector_ok(const Buffer& b, const ir::Distribution& d, const std::vector<int64_t>& off, int64_t n,
                        int64_t threads_used);

private:
  Status declare_buffers();
  Status prepare_resources();
  Status emit_setup();
  Status emit_teardown();

  const ir::Kernel& k_;
  const TargetDescription& target_;
  std::string arch_;
  int sm_ = 80;
  std::vector<Buffer> buffers_;
  std::map<std::string, size_t> buffer_index_;
  std::vector<std::map<std::string, std::string>> scopes_;  // IR variable -> C expression
  std::string body_;
  std::map<std::pair<const ir::Stmt*, int>, LdPlan> ld_plans_;
  int indent_ = 1;
  int counter_ = 0;
  int64_t smem_align_ = 16;
  int64_t placed_end_ = 0;  ///< the end of what the lowering placed (ir::placed_end)

  friend class ScopeGuard;

public:
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() { scopes_.pop_back(); }
  void bind_var(const std::string& ir_name, const std::string& c_expr) { scopes_.back()[ir_name] = c_expr; }
  std::vector<Buffer>& buffers() { return buffers_; }
  void add_local(const Buffer& b) {
    buffer_index_[b.name] = buffers_.size();
    buffers_.push_back(b);
  }
};

/// The CUDA C++ helpers every kernel starts with (Prelude.cpp).
std::string prelude(int sm, bool c_encoders);

std::string join(const std::vector<std::string>& parts, const std::string& sep);
std::string itos(int64_t v);

}  // namespace tegula::cuda::gen
