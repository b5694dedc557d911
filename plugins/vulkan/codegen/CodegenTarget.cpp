#include "plugins/vulkan/codegen/CodegenTarget.h"

#include <cstdint>
#include <sstream>

#include "core/Json.h"
#include "targets/MatrixQuery.h"

namespace tegula::vulkan {

Result<CodegenTarget> codegen_target(const TargetDescription& d) {
  if (d.backend != Backend::Vulkan)
    return error(ErrorCode::Unsupported, "target '" + d.name + "' is for the " + backend_name(d.backend) + " backend, not vulkan");
  CodegenTarget t;
  t.name = d.name;
  t.hash = target_hash(d);
  t.subgroup_width = d.subgroup_width;
  t.shared_memory_per_block = d.shared_memory_per_block;
  t.subgroup_ops = d.has_feature(Feature::SubgroupOps);
  for (DType x : {DType::I8, DType::U8, DType::E4M3, DType::E5M2, DType::Bool, DType::E4M3FNUZ, DType::E5M2FNUZ, DType::E2M3,
                  DType::E3M2, DType::E2M1, DType::E8M0, DType::UE4M3})
    t.int8 = t.int8 || d.has_dtype(x);
  t.int16 = d.has_dtype(DType::F16) || d.has_dtype(DType::BF16);
  t.float64 = d.has_dtype(DType::F64);
  // Plugin-private facts: one notes line (see CodegenTarget.h).
  if (auto doc = Json::parse(d.canonical_json); doc.is_ok()) {
    if (const Json* notes = doc->find("notes"); notes && notes->is_array()) {
      for (const Json& n : notes->items()) {
        if (!n.is_string() || n.as_string().rfind(kCapsNotePrefix, 0) != 0) continue;
        std::istringstream words(n.as_string().substr(std::string(kCapsNotePrefix).size()));
        std::string w;
        while (words >> w) {
          if (w == "atomic_float32_add") t.atomic_float32_add = true;
          if (w == "atomic_float64_add") t.atomic_float64_add = true;
          if (w == "int64_atomics") t.int64_atomics = true;
          if (w.rfind("push_constants=", 0) == 0) t.push_constant_bytes = uint32_t(std::strtoul(w.c_str() + 15, nullptr, 10));
          for (auto [key, widths] : {std::pair<std::string, std::vector<uint32_t>*>{"denorm_preserve=", &t.denorm_preserve},
                                     {"signed_zero_inf_nan_preserve=", &t.signed_zero_preserve}}) {
            if (w.rfind(key, 0) != 0) continue;
            std::istringstream list(w.substr(key.size()));
            std::string item;
            while (std::getline(list, item, ','))
              if (item == "16" || item == "32" || item == "64") widths->push_back(uint32_t(std::strtoul(item.c_str(), nullptr, 10)));
          }
        }
      }
    }
  }
  for (const MatrixInstruction& mi : d.matrix_instructions) {
    if (mi.kind != InstructionKind::Coopmat) continue;
    if (mi.scope == GroupScope::Cta) {
      t.workgroup_coopmat.push_back({mi.id, mi.m, mi.n, mi.k, mi.a_types.front(), mi.b_types.front(), mi.c_types.front(), mi.group_threads});
      continue;
    }
    for (const MmaShape& s : instruction_shapes(mi)) {
      CoopmatShape c;
      c.id = mi.id;
      c.m = s.m, c.n = s.n, c.k = s.k;
      c.a = mi.a_types.front(), c.b = mi.b_types.front(), c.c = mi.c_types.front();
      t.coopmat.push_back(c);
    }
  }
  return t;
}

}  // namespace tegula::vulkan
