#include "plugins/vulkan/DeviceTarget.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "core/Json.h"
#include "plugins/vulkan/DeclaredPeaks.h"
#include "plugins/vulkan/codegen/CodegenTarget.h"

namespace tegula::vulkan {

namespace {

/// VkComponentTypeKHR -> tegula dtype name; "" for types tegula has no dtype for.
std::string component_dtype(uint32_t c) {
  switch (c) {
    case 0: return "f16";
    case 1: return "f32";
    case 2: return "f64";
    case 3: return "i8";
    case 5: return "i32";
    case 7: return "u8";
    case 9: return "i32";  // u32 accumulators of u8 products: equal to i32 below 2^31
    case 1000141000: return "bf16";
    case 1000491002: return "e4m3";
    case 1000491003: return "e5m2";
    default: return "";
  }
}

Json strings(const std::vector<std::string>& items) {
  Json a = Json::array();
  for (const std::string& s : items) a.push(Json(s));
  return a;
}

Json opaque_registers() {
  Json reg = Json::object();
  reg.set("layout", Json("opaque"));
  Json o = Json::object();
  o.set("registers", reg);
  return o;
}

}  // namespace

std::string version_text(uint32_t v) {
  return std::to_string((v >> 22) & 0x7f) + "." + std::to_string((v >> 12) & 0x3ff) + "." + std::to_string(v & 0xfff);
}

std::string device_target_name(const DeviceCaps& caps) {
  std::string name = "vulkan_";
  bool underscore = true;
  for (char ch : caps.name) {
    char c = char(std::tolower(static_cast<unsigned char>(ch)));
    bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (word) {
      name += c;
      underscore = false;
    } else if (!underscore) {
      name += '_';
      underscore = true;
    }
  }
  while (!name.empty() && name.back() == '_') name.pop_back();
  return name;
}

namespace {

/// The dtypes the device can hold: 16-bit ones need 16-bit storage and integers, 8-bit ones
/// 8-bit storage and integers, f64 both float64 and int64.
std::vector<std::string> target_dtypes(const DeviceCaps& caps) {
  std::vector<std::string> dtypes{"f32", "tf32", "i32"};
  if (caps.storage16 && caps.int16) dtypes.insert(dtypes.end(), {"f16", "bf16"});
  if (caps.storage8 && caps.int8)
    dtypes.insert(dtypes.end(), {"i8", "u8", "e4m3", "e5m2", "bool", "e4m3fnuz", "e5m2fnuz", "e2m3", "e3m2", "e2m1", "e8m0", "ue4m3"});
  if (caps.float64 && caps.int64) dtypes.push_back("f64");
  return dtypes;
}

bool contains(const std::vector<std::string>& v, const std::string& d) { return std::find(v.begin(), v.end(), d) != v.end(); }

/// Cooperative-matrix entries (subgroup scope, dtypes this target has, no saturation).
void add_subgroup_matrices(const DeviceCaps& caps, const std::vector<std::string>& dtypes, int subgroup, Json& instructions,
                           std::set<std::string>& ids, std::set<std::string>& matrix_features) {
  auto has = [&](const std::string& d) { return contains(dtypes, d); };
  for (const CoopmatProps& p : caps.coopmat) {
    std::string a = component_dtype(p.a), b = component_dtype(p.b), c = component_dtype(p.c), r = component_dtype(p.result);
    if (p.scope != 3 || p.saturating || a.empty() || b.empty() || c.empty() || c != r) continue;
    if (!has(a) || !has(b) || !has(c)) continue;
    // Component types the generator emits: f16 (with shaderFloat16), i8, u8; f32, i32.
    auto emitted = [&](const std::string& d) { return (d == "f16" && caps.float16) || d == "i8" || d == "u8" || d == "f32" || d == "i32"; };
    if (!emitted(a) || !emitted(b) || !emitted(c) || a == "f32" || a == "i32") continue;
    std::string id = "coopmat.m" + std::to_string(p.m) + "n" + std::to_string(p.n) + "k" + std::to_string(p.k) + "." + a +
                     (a == b ? "" : "_" + b) + "_" + c;
    if (!ids.insert(id).second) continue;
    Json e = Json::object();
    e.set("id", Json(id));
    e.set("kind", Json("coopmat"));
    e.set("m", Json(int64_t(p.m)));
    e.set("n", Json(int64_t(p.n)));
    e.set("k", Json(int64_t(p.k)));
    e.set("dtypes", Json::object({{"a", Json(a)}, {"b", Json(b)}, {"c", Json(c)}, {"d", Json(r)}}));
    e.set("locations", Json::object({{"a", strings({"registers"})}, {"b", strings({"registers"})}, {"acc", strings({"registers"})}}));
    e.set("scope", Json("subgroup"));
    e.set("group_threads", Json(int64_t(subgroup)));
    e.set("issue_threads", Json(int64_t(subgroup)));
    Json majors = Json::object();
    // Matrices load row- or column-major (OpCooperativeMatrixLoadKHR's layout operand).
    majors.set("a", strings({"k", "mn"}));
    majors.set("b", strings({"k", "mn"}));
    e.set("majors", majors);
    Json layouts = Json::object();
    for (const char* op : {"a", "b", "acc"}) layouts.set(op, opaque_registers());
    e.set("layouts", layouts);
    e.set("mnemonic", Json("OpCooperativeMatrixMulAddKHR"));
    e.set("requires", strings({"cooperative_matrix"}));
    // Per-subgroup rates are estimates (Vulkan reports none): those of mma.sync on sm_90a.
    // Operands are f16, i8 or u8 (emitted() above), so 16- or 8-bit.
    bool int8 = a == "i8" || a == "u8";
    e.set("rate", Json(int64_t(int8 ? 1024 : 512)));
    // OpCooperativeMatrixLoadKHR's pointer may point to another type than the components
    // (16-byte words: ir/lower/PackSharedTiles.cpp).
    e.set("any_pointee", Json(true));
    instructions.push(e);
    matrix_features.insert(int8 ? "int8" : "f16");
  }
}

/// Workgroup-scope matrices (VK_NV_cooperative_matrix2 with tensor addressing): one matrix
/// of the whole block tile, A and B loaded straight from their tensors, for workgroups of
/// exactly the entry's invocations. Float entries only (the lowering takes them for f16 or
/// f32 results). The driver allows far larger matrices than run well: the sizes offered
/// keep the accumulator at 128 values per invocation (M x N <= 128 x invocations, M up to
/// N, N up to 256: 128 x 256 for 256 invocations, 128 x 128 for 128) and K steps at 64, within the device's maximum. (256 x 256 x 256 on 256
/// invocations took more than a minute to compile on the H200; 256 x 256 x 32 ran at 13
/// TFLOP/s, spilling.)
void add_workgroup_matrices(const DeviceCaps& caps, int subgroup, int max_threads, Json& instructions,
                            std::set<std::string>& ids) {
  for (const FlexibleCoopmatProps& p : caps.coopmat_flexible) {
    std::string a = component_dtype(p.a), b = component_dtype(p.b), c = component_dtype(p.c), r = component_dtype(p.result);
    if (p.scope != 2 || p.saturating || a != "f16" || b != "f16" || (c != "f32" && c != "f16") || c != r) continue;
    if (p.invocations == 0 || p.invocations % uint32_t(subgroup) || p.invocations > uint32_t(max_threads)) continue;
    if (!p.m_step || !p.n_step || !p.k_step) continue;
    // N: the power of two at or above sqrt(128 x invocations) (square or twice as wide).
    uint32_t n_top = 1;
    while (n_top * n_top < 128 * p.invocations) n_top *= 2;
    n_top = std::min<uint32_t>({n_top, 256, caps.coopmat_flexible_max});
    uint32_t m_top = std::min<uint32_t>({n_top, caps.coopmat_flexible_max, 128 * p.invocations / n_top});
    uint32_t k_top = std::min<uint32_t>(64, caps.coopmat_flexible_max);
    auto range = [&](uint32_t step, uint32_t top) {
      Json d = Json::object();
      d.set("min", Json(int64_t(step)));
      d.set("max", Json(int64_t(top / step * step)));
      d.set("step", Json(int64_t(step)));
      return d;
    };
    if (m_top < p.m_step || n_top < p.n_step || k_top < p.k_step) continue;
    std::string id = "coopmat.wg" + std::to_string(p.invocations) + "." + a + "_" + c;
    if (!ids.insert(id).second) continue;
    Json e = Json::object();
    e.set("id", Json(id));
    e.set("kind", Json("coopmat"));
    e.set("m", range(p.m_step, m_top));
    e.set("n", range(p.n_step, n_top));
    e.set("k", range(p.k_step, k_top));
    e.set("dtypes", Json::object({{"a", Json(a)}, {"b", Json(b)}, {"c", Json(c)}, {"d", Json(r)}}));
    e.set("locations", Json::object({{"a", strings({"global"})}, {"b", strings({"global"})}, {"acc", strings({"registers"})}}));
    e.set("scope", Json("cta"));
    e.set("group_threads", Json(int64_t(p.invocations)));
    e.set("issue_threads", Json(int64_t(p.invocations)));
    // Either order: a transposed operand loads through a tensor view that swaps coordinates.
    e.set("majors", Json::object({{"a", strings({"k", "mn"})}, {"b", strings({"k", "mn"})}}));
    Json global = Json::object({{"global", Json::object({{"layout", Json("opaque")}})}});
    e.set("layouts", Json::object({{"a", global}, {"b", global}, {"acc", opaque_registers()}}));
    e.set("mnemonic", Json("OpCooperativeMatrixMulAddKHR (Workgroup scope, OpCooperativeMatrixLoadTensorNV)"));
    e.set("requires", strings({"cooperative_matrix"}));
    // The subgroup entries' estimate per thread (512 per 32 threads).
    e.set("rate", Json(int64_t(16 * p.invocations)));
    // The driver stages workgroup matrices through shared memory it keeps (VkPhysicalDevice
    // CooperativeMatrix2PropertiesNV): the lowering fits the kernel in the rest.
    if (caps.coopmat_workgroup_reserved_shared) e.set("shared_reserve", Json(int64_t(caps.coopmat_workgroup_reserved_shared)));
    // Its loads, like the subgroup matrices', take a pointer to any type.
    e.set("any_pointee", Json(true));
    instructions.push(e);
  }
}

/// The fma fallback: every dtype in, f32 (f64) or i32 out.
Json fma_entry(const std::vector<std::string>& dtypes) {
  std::vector<std::string> ins, outs{"f32", "i32"};
  for (const std::string& d : dtypes)
    if (d != "bool") ins.push_back(d);
  if (contains(dtypes, "f64")) outs.push_back("f64");
  Json e = Json::object();
  e.set("id", Json("fma.scalar"));
  e.set("kind", Json("fma"));
  e.set("m", Json(1));
  e.set("n", Json(1));
  e.set("k", Json(1));
  Json dt = Json::object();
  dt.set("a", strings(ins));
  dt.set("b", strings(ins));
  dt.set("c", strings(outs));
  dt.set("d", strings(outs));
  e.set("dtypes", dt);
  Json loc = Json::object();
  for (const char* op : {"a", "b", "acc"}) loc.set(op, strings({"registers"}));
  e.set("locations", loc);
  e.set("scope", Json("thread"));
  e.set("group_threads", Json(1));
  e.set("issue_threads", Json(1));
  Json majors = Json::object();
  majors.set("a", strings({"k", "mn"}));
  majors.set("b", strings({"k", "mn"}));
  e.set("majors", majors);
  Json free = Json::object();
  free.set("layout", Json("free"));
  Json reg = Json::object();
  reg.set("registers", free);
  Json layouts = Json::object();
  for (const char* op : {"a", "b", "acc"}) layouts.set(op, reg);
  e.set("layouts", layouts);
  e.set("mnemonic", Json("GLSL.std.450 Fma (OpIMul + OpIAdd for integers)"));
  e.set("requires", Json::array());
  e.set("rate", Json(2));
  return e;
}

/// The float controls a shader may declare, as the caps note lists them. The widths a shader
/// declares DenormPreserve for: without independence every width must be set alike (all
/// three or none); with "32-bit only", 16 and 64 go together.
std::string float_controls_note(const DeviceCaps& caps) {
  std::string note;
  bool p16 = caps.denorm_preserve16, p32 = caps.denorm_preserve32, p64 = caps.denorm_preserve64;
  std::vector<int> widths;
  if (caps.denorm_independence == 1) {
    for (auto [w, ok] : {std::pair<int, bool>{16, p16}, {32, p32}, {64, p64}})
      if (ok) widths.push_back(w);
  } else if (caps.denorm_independence == 0) {
    if (p16 && p64) widths.insert(widths.end(), {16, 64});
    if (p32) widths.push_back(32);
  } else if (p16 && p32 && p64) {
    widths = {16, 32, 64};
  }
  std::string list;
  for (int w : widths) list += (list.empty() ? "" : ",") + std::to_string(w);
  if (!list.empty()) note += " denorm_preserve=" + list;
  list.clear();
  for (auto [w, ok] : {std::pair<int, bool>{16, caps.signed_zero_preserve16}, {32, caps.signed_zero_preserve32},
                       {64, caps.signed_zero_preserve64}})
    if (ok) list += (list.empty() ? "" : ",") + std::to_string(w);
  if (!list.empty()) note += " signed_zero_inf_nan_preserve=" + list;
  return note;
}

/// What code generation needs beyond the schema (CodegenTarget.h reads it back).
std::string caps_note(const DeviceCaps& caps, bool f64) {
  std::string caps_note = std::string(kCapsNotePrefix);
  if (caps.atomic_float32_add) caps_note += " atomic_float32_add";
  if (caps.atomic_float64_add && f64) caps_note += " atomic_float64_add";
  if (caps.int64_atomics && f64) caps_note += " int64_atomics";
  caps_note += " push_constants=" + std::to_string(std::max<uint32_t>(128, caps.max_push_constants));
  if (caps.coopmat_workgroup_reserved_shared)
    caps_note += " workgroup_matrix_shared=" + std::to_string(caps.coopmat_workgroup_reserved_shared);
  return caps_note + float_controls_note(caps);
}

std::string vendor_name(uint32_t vendor_id) {
  return vendor_id == 0x10DE ? "nvidia" : vendor_id == 0x1002 ? "amd" : vendor_id == 0x8086 ? "intel"
         : vendor_id == 0x10005 ? "mesa" : "generic";
}

}  // namespace

std::string device_target_json(const DeviceCaps& caps) {
  std::vector<std::string> dtypes = target_dtypes(caps);
  int subgroup = caps.subgroup_shuffle ? int(std::max<uint32_t>(1, caps.subgroup_size)) : 1;
  int max_threads = int(std::min<uint32_t>({caps.max_workgroup_invocations, caps.max_workgroup_size_x, 1024}));
  max_threads = std::max(subgroup, max_threads / subgroup * subgroup);

  Json instructions = Json::array();
  std::set<std::string> ids, matrix_features;
  if (subgroup > 1 && caps.vulkan_memory_model) add_subgroup_matrices(caps, dtypes, subgroup, instructions, ids, matrix_features);
  if (subgroup > 1 && caps.vulkan_memory_model && caps.float16 && caps.coopmat_tensor_addressing && !ids.empty())
    add_workgroup_matrices(caps, subgroup, max_threads, instructions, ids);
  instructions.push(fma_entry(dtypes));

  // Vulkan has no asynchronous copy engine; the generator pipelines through registers.
  std::vector<std::string> features = {"register_prefetch"};
  if (subgroup > 1) features.push_back("subgroup_ops");
  if (!ids.empty()) features.push_back("cooperative_matrix");
  for (const std::string& f : matrix_features) features.push_back(f);
  // NVIDIA's driver folds constant extents and strides into tensor-addressed matrix loads:
  // the H200 ran the tuned gemm 6-8x faster compiled for the launch's exact shapes than with
  // them in push constants (bench/results/h200-2026-12-03.md), so the runtime specialises.
  if (caps.vendor_id == 0x10DE && caps.coopmat_tensor_addressing) features.push_back("shape_specialization");

  Json t = Json::object();
  t.set("schema", Json("tegula.target.v1"));
  t.set("name", Json(device_target_name(caps)));
  t.set("version", Json(1));
  t.set("vendor", Json(vendor_name(caps.vendor_id)));
  t.set("arch", Json("vulkan"));
  t.set("backend", Json("vulkan"));
  t.set("subgroup_width", Json(int64_t(subgroup)));
  t.set("max_threads_per_block", Json(int64_t(max_threads)));
  t.set("shared_memory_per_block", Json(int64_t(caps.max_shared_memory)));
  if (caps.compute_units) t.set("compute_units", Json(int64_t(caps.compute_units)));
  if (const DataSheetPeak* sheet = data_sheet_peak(caps.vendor_id, caps.name)) {
    // Vulkan reports no clock or bandwidth: the data sheet's (DeclaredPeaks.h).
    Json peak = Json::object();
    Json tflops = Json::object();
    for (const char* d : {"f16", "bf16"})
      if (contains(dtypes, d)) tflops.set(d, Json(sheet->f16_tflops));
    peak.set("tflops", tflops);
    peak.set("memory_gbps", Json(sheet->memory_gbps));
    peak.set("clock_mhz", Json(sheet->clock_mhz));
    peak.set("subgroups_per_cu", Json(sheet->subgroups_per_cu));
    peak.set("fma_lanes_per_cu", Json(sheet->fma_lanes_per_cu));
    t.set("peak", peak);
  }
  if (caps.vendor_id == 0x10DE || caps.vendor_id == 0x1002) {
    // Not reported by Vulkan; 32 banks of 4 bytes on every NVIDIA and AMD GPU.
    Json banks = Json::object();
    banks.set("count", Json(32));
    banks.set("width_bytes", Json(4));
    t.set("shared_memory_banks", banks);
  }
  t.set("vector_bytes", Json(16));
  t.set("features", strings(features));
  t.set("dtypes", strings(dtypes));
  t.set("notes", strings({"Described by the tegula vulkan plugin from what '" + caps.name + "' reports (Vulkan " +
                              version_text(caps.api_version) + ", vendor 0x" + [&] {
                                char buf[16];
                                std::snprintf(buf, sizeof buf, "%04x", caps.vendor_id);
                                return std::string(buf);
                              }() + "). Cooperative-matrix rates are estimates.",
                          caps_note(caps, contains(dtypes, "f64"))}));
  t.set("matrix_instructions", instructions);
  return t.dump(2);
}

}  // namespace tegula::vulkan
