/// \file
/// parse_target(): reads a tegula.target.v1 document into a TargetDescription. This file
/// checks shape and types (fields present and known, values of the right kind, names from
/// the closed lists); TargetValidate.cpp then checks that the facts agree with each other.
#include <algorithm>
#include <cstdint>

#include "targets/Target.h"
#include "targets/TargetJson.h"
#include "targets/TargetValidate.h"

namespace tegula {

namespace {

constexpr int64_t kMaxInt = int64_t(1) << 48;

const char* kFeatureNames =
    "async_copy bulk_tensor_copy tensor_memory clusters cta_pair ldmatrix stmatrix "
    "lds_transpose warp_shuffle subgroup_ops cooperative_matrix mma_sync wgmma tcgen05 mfma "
    "f16 bf16 tf32 fp8 int8 f64 avx2 fma3 shape_specialization";
const char* kKindNames = "mma_sync wgmma tcgen05 mfma coopmat fma";
const char* kScopeNames = "thread warp warpgroup wave subgroup cta cta_pair";
const char* kLocationNames = "registers shared tensor_memory global";
const char* kMajorNames = "k mn";
const char* kSwizzleNames = "none 32B 64B 128B 128B_base32B";
const char* kBackendNames = "cuda hip vulkan cpu";
const char* kDTypeNames = "f64 f32 tf32 f16 bf16 e4m3 e5m2 i8 u8 i32 bool";

// A dimension: an integer, a range object, or a non-empty array of those.
Status read_range(const Json& value, const JsonPath& path, std::vector<DimRange>& out) {
  if (value.is_int()) {
    TG_ASSIGN_OR_RETURN(int64_t v, read_int(value, path, 1, 1 << 20));
    out.push_back({int(v), int(v), 1});
    return Status::ok();
  }
  if (!value.is_object()) {
    return path.fail(std::string("expected an integer or a range, got ") +
                     json_kind_name(value.kind()));
  }
  TG_RETURN_IF_ERROR(check_object(value, path, {"min", "max", "step"}));
  TG_ASSIGN_OR_RETURN(const Json* min, required_field(value, path, "min"));
  TG_ASSIGN_OR_RETURN(const Json* max, required_field(value, path, "max"));
  TG_ASSIGN_OR_RETURN(const Json* step, required_field(value, path, "step"));
  TG_ASSIGN_OR_RETURN(int64_t lo, read_int(*min, path.field("min"), 1, 1 << 20));
  TG_ASSIGN_OR_RETURN(int64_t hi, read_int(*max, path.field("max"), 1, 1 << 20));
  TG_ASSIGN_OR_RETURN(int64_t st, read_int(*step, path.field("step"), 1, 1 << 20));
  if (hi < lo) return path.fail("max " + std::to_string(hi) + " is below min " + std::to_string(lo));
  if ((hi - lo) % st != 0) {
    return path.fail("max - min (" + std::to_string(hi - lo) + ") is not a multiple of step " +
                     std::to_string(st));
  }
  out.push_back({int(lo), int(hi), int(st)});
  return Status::ok();
}

Result<Dim> read_dim(const Json& value, const JsonPath& path) {
  Dim dim;
  if (!value.is_array()) {
    TG_RETURN_IF_ERROR(read_range(value, path, dim.ranges));
    return dim;
  }
  if (value.items().empty()) return path.fail("expected at least one size or range");
  for (size_t i = 0; i < value.items().size(); ++i) {
    TG_RETURN_IF_ERROR(read_range(value.items()[i], path.item(i), dim.ranges));
  }
  return dim;
}

Result<Layout> read_layout(const Json& value, const JsonPath& path) {
  TG_ASSIGN_OR_RETURN(std::string text, read_string(value, path));
  Result<Layout> layout = Layout::parse(text);
  if (!layout.is_ok()) return path.fail(layout.status().message());
  for (const std::string& s : layout->symbols()) {
    if (s != "M" && s != "N" && s != "K") {
      return path.fail("layout uses unknown symbol '" + s + "' (allowed: M N K)");
    }
  }
  return std::move(layout).value();
}

Status read_registers(const Json& value, const JsonPath& path, OperandPlacement& p) {
  TG_RETURN_IF_ERROR(check_object(value, path, {"layout"}));
  TG_ASSIGN_OR_RETURN(const Json* layout, required_field(value, path, "layout"));
  if (layout->is_string() && layout->as_string() == "opaque") {
    p.form = OperandPlacement::Form::Opaque;
    return Status::ok();
  }
  if (layout->is_string() && layout->as_string() == "free") {
    p.form = OperandPlacement::Form::Free;
    return Status::ok();
  }
  TG_ASSIGN_OR_RETURN(p.layout, read_layout(*layout, path.field("layout")));
  return Status::ok();
}

Status require_opaque(const Json& value, const JsonPath& path) {
  TG_ASSIGN_OR_RETURN(const Json* layout, required_field(value, path, "layout"));
  TG_ASSIGN_OR_RETURN(std::string text, read_string(*layout, path.field("layout")));
  if (text != "opaque") {
    return path.field("layout").fail("must be \"opaque\": this location is not held per lane");
  }
  return Status::ok();
}

Status read_shared(const Json& value, const JsonPath& path, OperandPlacement& p) {
  TG_RETURN_IF_ERROR(check_object(value, path, {"layout", "swizzles", "alignment_bytes"}));
  TG_RETURN_IF_ERROR(require_opaque(value, path));
  p.form = OperandPlacement::Form::Opaque;
  TG_ASSIGN_OR_RETURN(const Json* swizzles, required_field(value, path, "swizzles"));
  TG_ASSIGN_OR_RETURN(p.swizzles, read_enum_list(*swizzles, path.field("swizzles"), parse_swizzle,
                                                 "swizzle", kSwizzleNames));
  TG_ASSIGN_OR_RETURN(const Json* align, required_field(value, path, "alignment_bytes"));
  TG_ASSIGN_OR_RETURN(int64_t a, read_int(*align, path.field("alignment_bytes"), 1, 1 << 20));
  p.alignment_bytes = int(a);
  return Status::ok();
}

Status read_tensor_memory(const Json& value, const JsonPath& path, OperandPlacement& p) {
  TG_RETURN_IF_ERROR(
      check_object(value, path, {"layout", "address_layout", "readback", "readback_layout"}));
  TG_RETURN_IF_ERROR(require_opaque(value, path));
  p.form = OperandPlacement::Form::Opaque;
  TG_ASSIGN_OR_RETURN(const Json* address, required_field(value, path, "address_layout"));
  TG_ASSIGN_OR_RETURN(p.address_layout, read_layout(*address, path.field("address_layout")));
  const Json* readback = value.find("readback");
  const Json* readback_layout = value.find("readback_layout");
  if ((readback == nullptr) != (readback_layout == nullptr)) {
    return path.fail("readback and readback_layout must be given together");
  }
  if (readback == nullptr) return Status::ok();
  TG_ASSIGN_OR_RETURN(p.readback, read_string(*readback, path.field("readback")));
  TG_ASSIGN_OR_RETURN(p.readback_layout,
                      read_layout(*readback_layout, path.field("readback_layout")));
  return Status::ok();
}

// The operand's allowed locations and, for each, its layout object.
Result<Operand> read_operand(const Json& locations, const Json& layouts, const JsonPath& loc_path,
                             const JsonPath& layout_path) {
  TG_ASSIGN_OR_RETURN(std::vector<OperandLocation> where,
                      read_enum_list(locations, loc_path, parse_operand_location, "location",
                                     kLocationNames));
  if (where.empty()) return loc_path.fail("expected at least one location");
  TG_RETURN_IF_ERROR(
      check_object(layouts, layout_path, {"registers", "shared", "tensor_memory", "global"}));
  for (const Json::Member& m : layouts.members()) {
    OperandLocation l = *parse_operand_location(m.first);
    if (std::find(where.begin(), where.end(), l) == where.end()) {
      return layout_path.fail("has a layout for '" + m.first + "', which is not among its locations");
    }
  }
  Operand operand;
  for (OperandLocation l : where) {
    const char* name = operand_location_name(l);
    TG_ASSIGN_OR_RETURN(const Json* spec, required_field(layouts, layout_path, name));
    OperandPlacement p;
    p.location = l;
    JsonPath at = layout_path.field(name);
    switch (l) {
      case OperandLocation::Registers: TG_RETURN_IF_ERROR(read_registers(*spec, at, p)); break;
      case OperandLocation::Shared: TG_RETURN_IF_ERROR(read_shared(*spec, at, p)); break;
      case OperandLocation::TensorMemory: TG_RETURN_IF_ERROR(read_tensor_memory(*spec, at, p)); break;
      case OperandLocation::Global:
        TG_RETURN_IF_ERROR(check_object(*spec, at, {"layout"}));
        TG_RETURN_IF_ERROR(require_opaque(*spec, at));
        p.form = OperandPlacement::Form::Opaque;
        break;
    }
    operand.placements.push_back(std::move(p));
  }
  return operand;
}

// Reads the required member `key` of `object` into `out` with `reader(value, path)`.
template <typename T, typename Reader>
Status read_field(const Json& object, const JsonPath& path, std::string_view key, T& out,
                  Reader reader) {
  TG_ASSIGN_OR_RETURN(const Json* value, required_field(object, path, key));
  TG_ASSIGN_OR_RETURN(out, reader(*value, path.field(key)));
  return Status::ok();
}

auto ints(int64_t min, int64_t max) {
  return [=](const Json& v, const JsonPath& p) { return read_int(v, p, min, max); };
}

template <typename E>
auto one_of(std::optional<E> (*parse)(std::string_view), const char* what, const char* allowed) {
  return [=](const Json& v, const JsonPath& p) { return read_enum(v, p, parse, what, allowed); };
}

template <typename E>
auto list_of(std::optional<E> (*parse)(std::string_view), const char* what, const char* allowed) {
  return [=](const Json& v, const JsonPath& p) { return read_enum_list(v, p, parse, what, allowed); };
}

Result<MatrixInstruction> read_instruction(const Json& v, const JsonPath& path) {
  TG_RETURN_IF_ERROR(check_object(
      v, path,
      {"id", "kind", "m", "n", "k", "dtypes", "locations", "scope", "group_threads", "issue_threads", "majors",
       "layouts", "mnemonic", "requires", "rate", "shared_reserve", "async_groups", "any_pointee"}));
  MatrixInstruction mi;
  TG_RETURN_IF_ERROR(read_field(v, path, "id", mi.id, read_string));
  TG_RETURN_IF_ERROR(read_field(v, path, "kind", mi.kind,
                                one_of(parse_instruction_kind, "instruction kind", kKindNames)));
  TG_RETURN_IF_ERROR(read_field(v, path, "m", mi.m, read_dim));
  TG_RETURN_IF_ERROR(read_field(v, path, "n", mi.n, read_dim));
  TG_RETURN_IF_ERROR(read_field(v, path, "k", mi.k, read_dim));

  TG_ASSIGN_OR_RETURN(const Json* dtypes, required_field(v, path, "dtypes"));
  JsonPath dp = path.field("dtypes");
  TG_RETURN_IF_ERROR(check_object(*dtypes, dp, {"a", "b", "c", "d"}));
  TG_RETURN_IF_ERROR(read_field(*dtypes, dp, "a", mi.a_types, read_dtypes));
  TG_RETURN_IF_ERROR(read_field(*dtypes, dp, "b", mi.b_types, read_dtypes));
  TG_RETURN_IF_ERROR(read_field(*dtypes, dp, "c", mi.c_types, read_dtypes));
  TG_RETURN_IF_ERROR(read_field(*dtypes, dp, "d", mi.d_types, read_dtypes));

  TG_RETURN_IF_ERROR(
      read_field(v, path, "scope", mi.scope, one_of(parse_group_scope, "scope", kScopeNames)));
  TG_RETURN_IF_ERROR(read_field(v, path, "group_threads", mi.group_threads, ints(1, 1024)));
  TG_RETURN_IF_ERROR(read_field(v, path, "issue_threads", mi.issue_threads, ints(1, 1024)));

  TG_ASSIGN_OR_RETURN(const Json* majors, required_field(v, path, "majors"));
  JsonPath mp = path.field("majors");
  TG_RETURN_IF_ERROR(check_object(*majors, mp, {"a", "b"}));
  auto major_list = list_of(parse_major, "major", kMajorNames);
  TG_RETURN_IF_ERROR(read_field(*majors, mp, "a", mi.a_majors, major_list));
  TG_RETURN_IF_ERROR(read_field(*majors, mp, "b", mi.b_majors, major_list));
  if (mi.a_majors.empty()) return mp.field("a").fail("expected at least one major");
  if (mi.b_majors.empty()) return mp.field("b").fail("expected at least one major");

  TG_ASSIGN_OR_RETURN(const Json* locations, required_field(v, path, "locations"));
  TG_ASSIGN_OR_RETURN(const Json* layouts, required_field(v, path, "layouts"));
  JsonPath lp = path.field("locations"), yp = path.field("layouts");
  TG_RETURN_IF_ERROR(check_object(*locations, lp, {"a", "b", "acc"}));
  TG_RETURN_IF_ERROR(check_object(*layouts, yp, {"a", "b", "acc"}));
  Operand* operands[3] = {&mi.a, &mi.b, &mi.acc};
  const char* names[3] = {"a", "b", "acc"};
  for (int i = 0; i < 3; ++i) {
    TG_ASSIGN_OR_RETURN(const Json* loc, required_field(*locations, lp, names[i]));
    TG_ASSIGN_OR_RETURN(const Json* lay, required_field(*layouts, yp, names[i]));
    TG_ASSIGN_OR_RETURN(*operands[i], read_operand(*loc, *lay, lp.field(names[i]), yp.field(names[i])));
  }

  TG_RETURN_IF_ERROR(read_field(v, path, "mnemonic", mi.mnemonic, read_string));
  TG_RETURN_IF_ERROR(read_field(v, path, "requires", mi.required_features,
                                list_of(parse_feature, "feature", kFeatureNames)));
  TG_RETURN_IF_ERROR(read_field(v, path, "rate", mi.rate, read_number));
  if (const Json* reserve = v.find("shared_reserve")) {
    TG_ASSIGN_OR_RETURN(mi.shared_reserve, read_int(*reserve, path.field("shared_reserve"), 0, int64_t(1) << 30));
  }
  for (auto [key, flag] :
       {std::pair<const char*, bool*>{"async_groups", &mi.async_groups}, {"any_pointee", &mi.any_pointee}}) {
    const Json* f = v.find(key);
    if (!f) continue;
    if (!f->is_bool())
      return path.field(key).fail(std::string("expected true or false, got ") + json_kind_name(f->kind()));
    *flag = f->as_bool();
  }
  return mi;
}

Result<std::optional<int64_t>> read_optional_int(const Json& root, const JsonPath& path,
                                                 std::string_view key) {
  const Json* v = root.find(key);
  if (v == nullptr) return std::optional<int64_t>();
  TG_ASSIGN_OR_RETURN(int64_t i, read_int(*v, path.field(key), 1, kMaxInt));
  return std::optional<int64_t>(i);
}

Status read_peak(const Json& v, const JsonPath& path, PeakRates& peak) {
  TG_RETURN_IF_ERROR(
      check_object(v, path, {"tflops", "memory_gbps", "clock_mhz", "subgroups_per_cu", "fma_lanes_per_cu"}));
  if (const Json* mem = v.find("memory_gbps")) {
    TG_ASSIGN_OR_RETURN(double gbps, read_number(*mem, path.field("memory_gbps")));
    peak.memory_gbps = gbps;
  }
  if (const Json* clock = v.find("clock_mhz")) {
    TG_ASSIGN_OR_RETURN(double mhz, read_number(*clock, path.field("clock_mhz")));
    peak.clock_mhz = mhz;
  }
  for (const char* key : {"subgroups_per_cu", "fma_lanes_per_cu"}) {
    const Json* n = v.find(key);
    if (n == nullptr) continue;
    TG_ASSIGN_OR_RETURN(int64_t i, read_int(*n, path.field(key), 1, 1 << 20));
    (std::string_view(key) == "subgroups_per_cu" ? peak.subgroups_per_cu : peak.fma_lanes_per_cu) = i;
  }
  const Json* tflops = v.find("tflops");
  if (tflops == nullptr) return Status::ok();
  JsonPath tp = path.field("tflops");
  if (!tflops->is_object()) {
    return tp.fail(std::string("expected an object, got ") + json_kind_name(tflops->kind()));
  }
  for (const Json::Member& m : tflops->members()) {
    std::optional<DType> t = parse_dtype(m.first);
    if (!t) return tp.fail("unknown dtype '" + m.first + "'");
    TG_ASSIGN_OR_RETURN(double value, read_number(m.second, tp.field(m.first)));
    peak.tflops.emplace_back(*t, value);
  }
  return Status::ok();
}

Status read_banks(const Json& v, const JsonPath& path, SharedMemoryBanks& banks) {
  TG_RETURN_IF_ERROR(check_object(v, path, {"count", "width_bytes"}));
  TG_ASSIGN_OR_RETURN(const Json* count, required_field(v, path, "count"));
  TG_ASSIGN_OR_RETURN(const Json* width, required_field(v, path, "width_bytes"));
  TG_ASSIGN_OR_RETURN(int64_t c, read_int(*count, path.field("count"), 1, 1024));
  TG_ASSIGN_OR_RETURN(int64_t w, read_int(*width, path.field("width_bytes"), 1, 1024));
  banks = {int(c), int(w)};
  return Status::ok();
}

Status read_document(const Json& root, const JsonPath& path, TargetDescription& t) {
  TG_RETURN_IF_ERROR(check_object(
      root, path,
      {"schema", "name", "version", "vendor", "arch", "backend", "subgroup_width",
       "max_threads_per_block", "shared_memory_per_block", "shared_memory_banks",
       "registers_per_block", "registers_per_thread", "compute_units", "l2_bytes",
       "vector_bytes", "peak", "features", "dtypes", "matrix_instructions", "notes"}));
  std::string schema;
  TG_RETURN_IF_ERROR(read_field(root, path, "schema", schema, read_string));
  if (schema != "tegula.target.v1") {
    return path.field("schema").fail("unsupported schema '" + schema + "' (expected tegula.target.v1)");
  }
  TG_RETURN_IF_ERROR(read_field(root, path, "name", t.name, read_string));
  TG_RETURN_IF_ERROR(read_field(root, path, "version", t.version, ints(1, 1 << 30)));
  TG_RETURN_IF_ERROR(read_field(root, path, "vendor", t.vendor, read_string));
  TG_RETURN_IF_ERROR(read_field(root, path, "arch", t.arch, read_string));
  TG_RETURN_IF_ERROR(
      read_field(root, path, "backend", t.backend, one_of(parse_backend, "backend", kBackendNames)));
  TG_RETURN_IF_ERROR(read_field(root, path, "subgroup_width", t.subgroup_width, ints(1, 1024)));
  TG_RETURN_IF_ERROR(
      read_field(root, path, "max_threads_per_block", t.max_threads_per_block, ints(1, 1 << 20)));
  TG_RETURN_IF_ERROR(read_field(root, path, "shared_memory_per_block", t.shared_memory_per_block,
                                ints(0, kMaxInt)));
  TG_RETURN_IF_ERROR(read_field(root, path, "vector_bytes", t.vector_bytes, ints(1, 1024)));
  if (const Json* banks = root.find("shared_memory_banks")) {
    SharedMemoryBanks b;
    TG_RETURN_IF_ERROR(read_banks(*banks, path.field("shared_memory_banks"), b));
    t.shared_memory_banks = b;
  }
  TG_ASSIGN_OR_RETURN(t.registers_per_block, read_optional_int(root, path, "registers_per_block"));
  TG_ASSIGN_OR_RETURN(t.registers_per_thread, read_optional_int(root, path, "registers_per_thread"));
  TG_ASSIGN_OR_RETURN(t.compute_units, read_optional_int(root, path, "compute_units"));
  TG_ASSIGN_OR_RETURN(t.l2_bytes, read_optional_int(root, path, "l2_bytes"));
  if (const Json* peak = root.find("peak")) {
    TG_RETURN_IF_ERROR(read_peak(*peak, path.field("peak"), t.peak));
  }
  if (const Json* notes = root.find("notes")) {
    TG_ASSIGN_OR_RETURN(std::vector<std::string> ignored, read_strings(*notes, path.field("notes")));
    (void)ignored;  // provenance for readers; hashed with the document but not interpreted
  }
  TG_RETURN_IF_ERROR(read_field(root, path, "features", t.features,
                                list_of(parse_feature, "feature", kFeatureNames)));
  TG_RETURN_IF_ERROR(read_field(root, path, "dtypes", t.dtypes,
                                list_of(parse_dtype, "dtype", kDTypeNames)));
  TG_ASSIGN_OR_RETURN(const Json* list, required_field(root, path, "matrix_instructions"));
  JsonPath lp = path.field("matrix_instructions");
  if (!list->is_array()) {
    return lp.fail(std::string("expected an array, got ") + json_kind_name(list->kind()));
  }
  for (size_t i = 0; i < list->items().size(); ++i) {
    TG_ASSIGN_OR_RETURN(MatrixInstruction mi, read_instruction(list->items()[i], lp.item(i)));
    t.matrix_instructions.push_back(std::move(mi));
  }
  return Status::ok();
}

}  // namespace

Result<TargetDescription> parse_target(std::string_view json, std::string source_name) {
  TargetDescription t;
  t.source = std::move(source_name);
  TG_ASSIGN_OR_RETURN(Json root, Json::parse(json, t.source));
  JsonPath path(t.source);
  TG_RETURN_IF_ERROR(read_document(root, path, t));
  TG_RETURN_IF_ERROR(validate_target(t, path));
  t.canonical_json = sorted_json(root).dump();
  return t;
}

}  // namespace tegula
