/// \file
/// Names of the schema's enumerations, small accessors, and target_hash().
#include "targets/Target.h"

#include <algorithm>

#include "core/Sha256.h"

namespace tegula {

namespace {

template <typename E>
using NameRow = std::pair<E, const char*>;

template <typename E, size_t N>
const char* name_of(const NameRow<E> (&table)[N], E value) {
  for (const auto& [e, name] : table) {
    if (e == value) return name;
  }
  return "?";
}

template <typename E, size_t N>
std::optional<E> parse_name(const NameRow<E> (&table)[N], std::string_view text) {
  for (const auto& [e, name] : table) {
    if (text == name) return e;
  }
  return std::nullopt;
}

constexpr NameRow<Feature> kFeatures[] = {
#define TG_FEATURE_ROW(e, name) {Feature::e, name},
    TG_FOR_EACH_TARGET_FEATURE(TG_FEATURE_ROW)
#undef TG_FEATURE_ROW
};

constexpr NameRow<Backend> kBackends[] = {
    {Backend::Cuda, "cuda"}, {Backend::Hip, "hip"}, {Backend::Vulkan, "vulkan"}, {Backend::Cpu, "cpu"}};

constexpr NameRow<InstructionKind> kKinds[] = {{InstructionKind::MmaSync, "mma_sync"},
                                                   {InstructionKind::Wgmma, "wgmma"},
                                                   {InstructionKind::Tcgen05, "tcgen05"},
                                                   {InstructionKind::Mfma, "mfma"},
                                                   {InstructionKind::Coopmat, "coopmat"},
                                                   {InstructionKind::Fma, "fma"}};

constexpr NameRow<GroupScope> kScopes[] = {{GroupScope::Thread, "thread"},
                                               {GroupScope::Warp, "warp"},
                                               {GroupScope::Warpgroup, "warpgroup"},
                                               {GroupScope::Wave, "wave"},
                                               {GroupScope::Subgroup, "subgroup"},
                                               {GroupScope::Cta, "cta"},
                                               {GroupScope::CtaPair, "cta_pair"}};

constexpr NameRow<OperandLocation> kLocations[] = {{OperandLocation::Registers, "registers"},
                                                       {OperandLocation::Shared, "shared"},
                                                       {OperandLocation::TensorMemory, "tensor_memory"},
                                                       {OperandLocation::Global, "global"}};

constexpr NameRow<Major> kMajors[] = {{Major::K, "k"}, {Major::MN, "mn"}};

constexpr NameRow<Swizzle> kSwizzles[] = {{Swizzle::None, "none"},
                                              {Swizzle::B32, "32B"},
                                              {Swizzle::B64, "64B"},
                                              {Swizzle::B128, "128B"},
                                              {Swizzle::B128Base32, "128B_base32B"}};

}  // namespace

const char* feature_name(Feature f) { return name_of(kFeatures, f); }
std::optional<Feature> parse_feature(std::string_view s) { return parse_name(kFeatures, s); }
const char* backend_name(Backend b) { return name_of(kBackends, b); }
std::optional<Backend> parse_backend(std::string_view s) { return parse_name(kBackends, s); }
const char* instruction_kind_name(InstructionKind k) { return name_of(kKinds, k); }
std::optional<InstructionKind> parse_instruction_kind(std::string_view s) { return parse_name(kKinds, s); }
const char* group_scope_name(GroupScope s) { return name_of(kScopes, s); }
std::optional<GroupScope> parse_group_scope(std::string_view s) { return parse_name(kScopes, s); }
const char* operand_location_name(OperandLocation l) { return name_of(kLocations, l); }
std::optional<OperandLocation> parse_operand_location(std::string_view s) { return parse_name(kLocations, s); }
const char* major_name(Major m) { return name_of(kMajors, m); }
std::optional<Major> parse_major(std::string_view s) { return parse_name(kMajors, s); }
const char* swizzle_name(Swizzle s) { return name_of(kSwizzles, s); }
std::optional<Swizzle> parse_swizzle(std::string_view s) { return parse_name(kSwizzles, s); }

bool Dim::contains(int value) const {
  return std::any_of(ranges.begin(), ranges.end(), [&](const DimRange& r) {
    return value >= r.min && value <= r.max && (value - r.min) % r.step == 0;
  });
}

std::vector<int> Dim::values() const {
  std::vector<int> out;
  for (const DimRange& r : ranges) {
    for (int v = r.min; v <= r.max; v += r.step) out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string Dim::to_string() const {
  std::string out;
  for (const DimRange& r : ranges) {
    if (!out.empty()) out += "|";
    out += std::to_string(r.min);
    if (r.max != r.min) out += ".." + std::to_string(r.max) + "/" + std::to_string(r.step);
  }
  return out;
}

const OperandPlacement* Operand::find(OperandLocation location) const {
  for (const OperandPlacement& p : placements) {
    if (p.location == location) return &p;
  }
  return nullptr;
}

bool TargetDescription::has_feature(Feature f) const {
  return std::find(features.begin(), features.end(), f) != features.end();
}

bool TargetDescription::has_dtype(DType t) const {
  return std::find(dtypes.begin(), dtypes.end(), t) != dtypes.end();
}

const MatrixInstruction* TargetDescription::find_instruction(std::string_view id) const {
  for (const MatrixInstruction& mi : matrix_instructions) {
    if (mi.id == id) return &mi;
  }
  return nullptr;
}

std::string target_hash(const TargetDescription& target) { return sha256_hex(target.canonical_json); }

}  // namespace tegula
