/// \file
/// What every case family (one file each in this folder) needs: the target being
/// described, the list being built, and helpers that write kernels as .tile text.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "conformance/Case.h"
#include "targets/Target.h"

namespace tegula::conformance {

/// Every dtype of the IR, in DType order: the axis cases are generated over. Dtypes a
/// target does not claim give NotSupported cases.
const std::vector<DType>& all_dtypes();
/// The float dtypes, the integer dtypes (i8, u8, i32).
const std::vector<DType>& float_dtypes();
/// The narrow floats that are storage formats (FNUZ fp8, fp6, fp4, e8m0, ue4m3): a kernel
/// computes in f32 between the load that decodes them and the store that rounds to them, so
/// what a device can get wrong is the encoding. The suite tests them where the encoding
/// matters (conversions to and from their partners, casts, copy routes, padding, fill,
/// loads, a few map functions, sum and max reductions) rather than across every function,
/// shape, scan and pair, which would be 1600 more cases a device.
bool storage_format(DType d);
/// A storage format's partners in conversions: f32, f64, f16, bf16, e4m3, i32 and itself.
bool conversion_partner(DType d);
/// Whether the conversion from `from` to `to` is one the suite runs: any pair of the other
/// dtypes, and a storage format only with its partners.
bool tested_conversion(DType from, DType to);
/// Whether a float dtype has a -0 (the FNUZ formats and the unsigned e8m0 and ue4m3 have
/// not): the signed-zero cases are about it.
bool has_negative_zero(DType d);
const std::vector<DType>& int_dtypes();

class Generator {
public:
  Generator(const TargetDescription& target, std::vector<CaseSpec>& out) : target_(target), out_(out) {}

  const TargetDescription& target() const { return target_; }
  /// "" when the target claims every dtype, else the NotSupported reason.
  std::string needs(std::initializer_list<DType> dtypes) const;
  void add(CaseSpec c) { out_.push_back(std::move(c)); }

private:
  const TargetDescription& target_;
  std::vector<CaseSpec>& out_;
};

// One function per family (one file each).
void add_copy_cases(Generator& g);
void add_convert_cases(Generator& g);
void add_fill_cases(Generator& g);
void add_gemm_cases(Generator& g);
void add_reduce_cases(Generator& g);
void add_scan_cases(Generator& g);
void add_map_cases(Generator& g);
void add_map_index_cases(Generator& g);  ///< called by add_map_cases
void add_parallel_cases(Generator& g);
void add_atomic_cases(Generator& g);
void add_control_cases(Generator& g);
void add_out_of_range_cases(Generator& g);
void add_exchange_cases(Generator& g);
void add_workload_cases(Generator& g);  ///< the shipped example kernels (examples/)
void add_block_load_cases(Generator& g);
void add_view_cases(Generator& g);  ///< rank-dropping views of global tensors

/// The gemm cases that force each instruction of `target`'s catalogue, for compiling
/// offline (CompileOnly): one per instruction shape, on the instruction's own layout.
void add_offline_gemm_cases(Generator& g, const std::string& offline_target);
/// The block-load cases the offline target claims, for compiling offline (CompileOnly).
void add_offline_block_load_cases(Generator& g, const std::string& offline_target);
/// The view cases (one copy, the pipelined gemm) for compiling offline (CompileOnly).
void add_offline_view_cases(Generator& g, const std::string& offline_target);

namespace kt {

inline std::string n(int64_t v) { return std::to_string(v); }
inline const char* dt(DType d) { return dtype_name(d); }
/// A literal of value `v` as the IR writes it for a `d` destination: integers for integer
/// and bool dtypes, shortest round-tripping float text (inf, -inf, nan) otherwise.
std::string literal(double v, DType d);
/// "[a, b, ...]"
std::string dims(std::initializer_list<std::string> parts);
std::string dims(const std::vector<int64_t>& parts);

inline TensorSpec input(Values v, int64_t index_limit = 0) { return {Role::Input, v, index_limit}; }
inline TensorSpec output() { return {Role::Output, Values::Lattice, 0}; }
inline TensorSpec inout(Values v) { return {Role::InOut, v, 0}; }
inline TensorSpec scalar() { return {Role::Input, Values::Lattice, 0}; }

}  // namespace kt

/// "" when `text` lowers for the target, else why not (a kernel that needs more shared memory
/// than the device has is NotSupported there, with the lowering's reason). A kernel that does
/// not verify gives "": the suite's own test (cases_lower_on_every_target) reports it.
std::string lowering_refusal(const std::string& text, const TargetDescription& target);

}  // namespace tegula::conformance
