/// \file
/// Target descriptions: versioned data (schema "tegula.target.v1") that tell the backend-
/// agnostic lowering what a device offers: its sizes and limits, its feature flags, the
/// dtypes it handles, and a catalogue of matrix instructions with their fragment layouts.
/// The lowering consults only this data, never a backend. targets/README.md documents the
/// JSON field by field; the built-in descriptions live in targets/descriptions/*.json and
/// are compiled into the library.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"
#include "targets/Layout.h"

namespace tegula {

/// The closed list of feature flags: X(Enumerator, name in JSON). A name outside this list
/// is an error, so a typo in a description cannot silently switch a feature off.
#define TG_FOR_EACH_TARGET_FEATURE(X)          \
  X(AsyncCopy, "async_copy")                   \
  X(BulkTensorCopy, "bulk_tensor_copy")        \
  X(RegisterPrefetch, "register_prefetch")     \
  X(TensorMemory, "tensor_memory")             \
  X(Clusters, "clusters")                      \
  X(CtaPair, "cta_pair")                       \
  X(Ldmatrix, "ldmatrix")                      \
  X(Stmatrix, "stmatrix")                      \
  X(LdsTranspose, "lds_transpose")             \
  X(WarpShuffle, "warp_shuffle")               \
  X(SubgroupOps, "subgroup_ops")               \
  X(CooperativeMatrix, "cooperative_matrix")   \
  X(MmaSync, "mma_sync")                       \
  X(Wgmma, "wgmma")                            \
  X(Tcgen05, "tcgen05")                        \
  X(Mfma, "mfma")                              \
  X(F16, "f16")                                \
  X(Bf16, "bf16")                              \
  X(Tf32, "tf32")                              \
  X(Fp8, "fp8")                                \
  X(Int8, "int8")                              \
  X(F64, "f64")                                \
  X(Avx2, "avx2")                              \
  X(Fma3, "fma3")                              \
  X(ShapeSpecialization, "shape_specialization") \
  X(NonsaturatingStores, "nonsaturating_stores")

enum class Feature : uint8_t {
#define TG_FEATURE_ENUM(e, name) e,
  TG_FOR_EACH_TARGET_FEATURE(TG_FEATURE_ENUM)
#undef TG_FEATURE_ENUM
};

enum class Backend : uint8_t { Cuda, Hip, Vulkan, Cpu };
enum class InstructionKind : uint8_t { MmaSync, Wgmma, Tcgen05, Mfma, Coopmat, Fma };
/// Who issues an instruction together.
enum class GroupScope : uint8_t { Thread, Warp, Warpgroup, Wave, Subgroup, Cta, CtaPair };
/// Global: the instruction loads the operand tile itself, straight from the tensor in global
/// memory (workgroup-scope cooperative matrices), so the kernel's shared copy of it can go.
enum class OperandLocation : uint8_t { Registers, Shared, TensorMemory, Global };
/// The memory order of an operand tile: "k" = K contiguous, "mn" = M (or N) contiguous.
enum class Major : uint8_t { K, MN };
/// Shared-memory swizzle modes a matrix descriptor can encode.
enum class Swizzle : uint8_t { None, B32, B64, B128, B128Base32 };

const char* feature_name(Feature f);
std::optional<Feature> parse_feature(std::string_view name);
const char* backend_name(Backend b);
std::optional<Backend> parse_backend(std::string_view name);
const char* instruction_kind_name(InstructionKind k);
std::optional<InstructionKind> parse_instruction_kind(std::string_view name);
const char* group_scope_name(GroupScope s);
std::optional<GroupScope> parse_group_scope(std::string_view name);
const char* operand_location_name(OperandLocation l);
std::optional<OperandLocation> parse_operand_location(std::string_view name);
const char* major_name(Major m);
std::optional<Major> parse_major(std::string_view name);
const char* swizzle_name(Swizzle s);
std::optional<Swizzle> parse_swizzle(std::string_view name);

/// The sizes one instruction dimension allows: a union of min..max step ranges.
/// A fixed size is the single range {v, v, 1}.
struct DimRange {
  int min = 0;
  int max = 0;
  int step = 1;
};

struct Dim {
  std::vector<DimRange> ranges;

  bool contains(int value) const;
  /// Every allowed size, ascending, without repeats.
  std::vector<int> values() const;
  bool is_fixed() const { return ranges.size() == 1 && ranges[0].min == ranges[0].max; }
  /// "16", "8..256/8" or "8..24/8|32..256/16".
  std::string to_string() const;
};

/// How an operand is laid out in one location.
struct OperandPlacement {
  enum class Form : uint8_t {
    ThreadValue,  ///< per-lane fragment described by `layout`
    Opaque,       ///< not per-lane (shared-memory descriptor, tensor memory, coopmat)
    Free,         ///< chosen by the lowering (the scalar fma fallback)
  };

  OperandLocation location = OperandLocation::Registers;
  Form form = Form::ThreadValue;
  /// ThreadValue: (thread, value) -> column-major index into the operand tile, whose shape
  /// is (M,K) for A, (N,K) for B and (M,N) for the accumulator. Symbols: M, N, K.
  Layout layout;

  /// Shared memory: the swizzles the instruction's descriptor accepts, and the alignment of
  /// the tile's start address.
  std::vector<Swizzle> swizzles;
  int alignment_bytes = 0;

  /// Tensor memory: (row, col) of the tile -> address offset (lane << 16 | column) from the
  /// allocation base, the instruction that reads the tile back into registers and the
  /// thread-value layout of the fragment it delivers.
  Layout address_layout;
  std::string readback;
  std::optional<Layout> readback_layout;
};

struct Operand {
  std::vector<OperandPlacement> placements;  ///< one per allowed location, in JSON order

  const OperandPlacement* find(OperandLocation location) const;
  bool allows(OperandLocation location) const { return find(location) != nullptr; }
};

/// One entry of a target's matrix-instruction catalogue: D = A*B + C on an M x N x K tile.
struct MatrixInstruction {
  std::string id;
  InstructionKind kind = InstructionKind::Fma;
  Dim m, n, k;
  /// Allowed element dtypes: A, B, C (accumulator in) and D (result). Usually one each; the
  /// fma fallback lists every dtype it converts from.
  std::vector<DType> a_types, b_types, c_types, d_types;
  Operand a, b, acc;
  GroupScope scope = GroupScope::Thread;
  int group_threads = 1;  ///< threads that hold fragments or take part
  int issue_threads = 1;  ///< threads that issue it (1 for tcgen05)
  std::vector<Major> a_majors, b_majors;
  std::string mnemonic;
  std::vector<Feature> required_features;  ///< "requires" in JSON
  /// Dense FLOPs (2*M*N*K per instruction) one issuing group completes per clock; see the
  /// README for the basis of each family. Compare entries by rate / group_threads.
  double rate = 0;
  /// Bytes of the block's shared memory the instruction's implementation keeps for itself
  /// when a kernel uses it ("shared_reserve"; Vulkan's workgroup-scope matrices stage through
  /// driver-reserved shared memory). Lowering fits the kernel's own regions in what is left.
  int64_t shared_reserve = 0;
  /// "async_groups": the instruction runs asynchronously in commit groups that complete in
  /// issue order, and its threads can wait until all but the newest group are done (wgmma's
  /// commit_group / wait_group). A pipelined loop may then leave one gemm's group in flight
  /// while the next iteration starts (ir/lower/PlanMmaOverlap.cpp).
  bool async_groups = false;
  /// "any_pointee": the instruction loads its A and B tiles from shared memory through a
  /// pointer whose pointee type may differ from the operands' element type
  /// (SPV_KHR_cooperative_matrix), so their tiles may be stored as 16-byte words
  /// (ir/lower/PackSharedTiles.cpp).
  bool any_pointee = false;
};

struct SharedMemoryBanks {
  int count = 0;
  int width_bytes = 0;
};

/// What a device declares it can reach (targets/Peak.h turns these into the peak of each
/// matrix instruction, of the FMA fallback and of memory, for the conformance suite's
/// performance section).
struct PeakRates {
  std::vector<std::pair<DType, double>> tflops;  ///< dense peak per input dtype
  std::optional<double> memory_gbps;
  /// The clock the data sheet's peaks assume (NVIDIA's "boost for tensor cores", AMD's peak
  /// engine clock); absent: derived from `tflops` and the catalogue's rates.
  std::optional<double> clock_mhz;
  /// Subgroups (warps, waves) a compute unit issues from at once: its schedulers (4 on an
  /// NVIDIA SM since Volta, 4 SIMDs on an AMD CDNA CU). An instruction whose issuing group
  /// spans g subgroups runs in subgroups_per_cu / g groups at once.
  std::optional<int64_t> subgroups_per_cu;
  /// FP32 fused multiply-adds a compute unit completes per clock (128 on an H100 SM, 64 on
  /// A100, 128 on an MI300 CU counting dual issue).
  std::optional<int64_t> fma_lanes_per_cu;
};

struct TargetDescription {
  std::string source;  ///< the name errors were reported under ("sm_90a.json")
  std::string name;
  int version = 0;
  std::string vendor;
  std::string arch;
  Backend backend = Backend::Cpu;
  int subgroup_width = 0;
  int max_threads_per_block = 0;
  int64_t shared_memory_per_block = 0;
  std::optional<SharedMemoryBanks> shared_memory_banks;
  std::optional<int64_t> registers_per_block;
  std::optional<int64_t> registers_per_thread;
  std::optional<int64_t> compute_units;
  std::optional<int64_t> l2_bytes;
  int vector_bytes = 0;
  PeakRates peak;
  std::vector<Feature> features;
  std::vector<DType> dtypes;
  std::vector<MatrixInstruction> matrix_instructions;
  /// The parsed document written back with object keys sorted and no spaces: what
  /// target_hash() digests, so formatting and key order do not change the hash.
  std::string canonical_json;

  bool has_feature(Feature f) const;
  bool has_dtype(DType t) const;
  const MatrixInstruction* find_instruction(std::string_view id) const;
};

/// Parse and validate a description. Every error names the input and the JSON path, e.g.
/// "sm_90a.json: matrix_instructions[3].layouts.a.registers: ...".
Result<TargetDescription> parse_target(std::string_view json, std::string source_name);

/// SHA-256 (hex) of the canonical JSON; part of every compile-cache key.
std::string target_hash(const TargetDescription& target);

/// Names of the descriptions compiled into the library, sorted.
const std::vector<std::string>& builtin_target_names();
/// Parse a built-in description; NotFound for an unknown name.
Result<TargetDescription> builtin_target(std::string_view name);

/// A readable multi-line summary (for `tegula targets`): identity, limits, features and
/// one line per matrix instruction.
std::string describe_target(const TargetDescription& target);

}  // namespace tegula
