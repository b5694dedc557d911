/// \file
/// The executable format; see Blob.h.
#include "plugins/cuda/Blob.h"

#include <cstdint>
#include <sstream>

#include "plugins/support/Container.h"

namespace tegula::cuda {
namespace {

constexpr char kMagic[8] = {'t', 'g', 'c', 'u', 'd', 'a', 'e', 'x'};
/// 2: the sections moved into the SDK container (plugins/support/Container.h).
constexpr uint32_t kVersion = 2;

const char* kind_name(ParamSlot::Kind k) {
  switch (k) {
    case ParamSlot::Kind::Pointer: return "ptr";
    case ParamSlot::Kind::I64: return "i64";
    case ParamSlot::Kind::F32: return "f32";
    case ParamSlot::Kind::F64: return "f64";
    case ParamSlot::Kind::TensorMap: return "tmap";
  }
  return "?";
}

std::string metadata(const KernelInfo& k) {
  std::ostringstream o;
  o << "name " << k.name << "\n";
  o << "threads " << k.threads << "\n";
  o << "shared " << k.shared_bytes << "\n";
  o << "args " << k.arg_count;
  for (uint8_t t : k.arg_is_tensor) o << ' ' << int(t);
  o << "\n";
  for (const ParamSlot& p : k.params) o << "param " << kind_name(p.kind) << ' ' << p.arg << ' ' << int(p.dtype) << "\n";
  for (const TensorMapSpec& m : k.tensor_maps) {
    o << "tmap " << m.arg << ' ' << m.dtype << ' ' << m.elem_bytes << ' ' << m.swizzle << ' ' << m.oob_fill << ' ' << m.dims.size();
    for (const DimSpec& d : m.dims) o << ' ' << d.value << ' ' << d.arg;
    o << ' ' << m.box.size();
    for (uint32_t b : m.box) o << ' ' << b;
    o << "\n";
  }
  for (const KernelInfo::Tensor& t : k.tensors) {
    o << "tensor " << t.arg << ' ' << t.elem_bytes << ' ' << t.dims.size();
    for (const DimSpec& d : t.dims) o << ' ' << d.value << ' ' << d.arg;
    o << "\n";
  }
  for (const auto& [arg, div] : k.assume) o << "assume " << arg << ' ' << div << "\n";
  for (const auto& [arg, bytes] : k.align) o << "align " << arg << ' ' << bytes << "\n";
  return o.str();
}

Status corrupt(const std::string& why) { return error(ErrorCode::Corrupt, "cuda: executable: " + why); }

Result<KernelInfo> parse_metadata(const std::string& text) {
  KernelInfo k;
  std::istringstream in(text);
  std::string line;
  bool have_name = false, have_args = false;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream l(line);
    std::string key;
    l >> key;
    if (key == "name") {
      l >> k.name;
      have_name = !k.name.empty();
    } else if (key == "threads") {
      l >> k.threads;
    } else if (key == "shared") {
      l >> k.shared_bytes;
    } else if (key == "args") {
      l >> k.arg_count;
      if (k.arg_count > 4096) return corrupt("too many arguments");
      for (uint32_t i = 0; i < k.arg_count; ++i) {
        int t = -1;
        l >> t;
        if (t != 0 && t != 1) return corrupt("bad argument kinds");
        k.arg_is_tensor.push_back(uint8_t(t));
      }
      have_args = true;
    } else if (key == "param") {
      std::string kind;
      ParamSlot p;
      int dtype = 0;
      l >> kind >> p.arg >> dtype;
      p.dtype = uint8_t(dtype);
      if (kind == "ptr") p.kind = ParamSlot::Kind::Pointer;
      else if (kind == "i64") p.kind = ParamSlot::Kind::I64;
      else if (kind == "f32") p.kind = ParamSlot::Kind::F32;
      else if (kind == "f64") p.kind = ParamSlot::Kind::F64;
      else if (kind == "tmap") p.kind = ParamSlot::Kind::TensorMap;
      else return corrupt("unknown parameter kind '" + kind + "'");
      if ((dtype < 0 || dtype >= kNumDTypes) && dtype != kSymbolDType) return corrupt("bad dtype");
      k.params.push_back(p);
    } else if (key == "tmap") {
      TensorMapSpec m;
      size_t rank = 0, boxes = 0;
      l >> m.arg >> m.dtype >> m.elem_bytes >> m.swizzle >> m.oob_fill >> rank;
      if (rank < 1 || rank > 5) return corrupt("bad tensor map rank");
      for (size_t i = 0; i < rank; ++i) {
        DimSpec d;
        l >> d.value >> d.arg;
        m.dims.push_back(d);
      }
      l >> boxes;
      if (boxes != rank) return corrupt("bad tensor map box");
      for (size_t i = 0; i < boxes; ++i) {
        uint32_t b = 0;
        l >> b;
        m.box.push_back(b);
      }
      k.tensor_maps.push_back(m);
    } else if (key == "tensor") {
      KernelInfo::Tensor t;
      size_t rank = 0;
      l >> t.arg >> t.elem_bytes >> rank;
      if (rank > 8) return corrupt("bad tensor rank");
      for (size_t i = 0; i < rank; ++i) {
        DimSpec d;
        l >> d.value >> d.arg;
        t.dims.push_back(d);
      }
      k.tensors.push_back(t);
    } else if (key == "assume") {
      uint32_t arg = 0;
      int64_t div = 0;
      l >> arg >> div;
      k.assume.push_back({arg, div});
    } else if (key == "align") {
      uint32_t arg = 0, bytes = 0;
      l >> arg >> bytes;
      k.align.push_back({arg, bytes});
    } else {
      return corrupt("unknown metadata line '" + key + "'");
    }
    if (l.fail()) return corrupt("malformed metadata line '" + line + "'");
  }
  if (!have_name || !have_args || k.threads < 1 || k.threads > 1024 || k.shared_bytes < 0) return corrupt("incomplete metadata");
  for (const ParamSlot& p : k.params) {
    if (p.kind == ParamSlot::Kind::TensorMap ? p.arg >= k.tensor_maps.size() : p.arg >= k.arg_count) return corrupt("parameter out of range");
  }
  for (const TensorMapSpec& m : k.tensor_maps) {
    if (m.arg >= k.arg_count || !k.arg_is_tensor[m.arg]) return corrupt("tensor map of a non-tensor argument");
    for (const DimSpec& d : m.dims)
      if (d.arg >= int32_t(k.arg_count)) return corrupt("tensor map dimension out of range");
  }
  for (const KernelInfo::Tensor& t : k.tensors) {
    if (t.arg >= k.arg_count || !k.arg_is_tensor[t.arg] || t.elem_bytes < 1 || t.elem_bytes > 8) return corrupt("bad tensor");
    for (const DimSpec& d : t.dims)
      if (d.arg >= int32_t(k.arg_count)) return corrupt("tensor dimension out of range");
  }
  for (const auto& [arg, div] : k.assume)
    if (arg >= k.arg_count || div < 1) return corrupt("bad assumption");
  for (const auto& [arg, bytes] : k.align)
    if (arg >= k.arg_count || bytes < 1) return corrupt("bad alignment");
  return k;
}

}  // namespace

std::string encode_executable(const Executable& e) {
  return plugin::ContainerWriter(std::string_view(kMagic, sizeof kMagic), kVersion)
      .field(e.arch)
      .field(metadata(e.info))
      .field(e.ptx)
      .field(e.cubin)
      .finish();
}

Result<Executable> decode_executable(const void* data, size_t size) {
  TG_ASSIGN_OR_RETURN(plugin::ContainerReader r, plugin::ContainerReader::open(data, size, std::string_view(kMagic, sizeof kMagic),
                                                                               kVersion, "cuda executable"));
  Executable e;
  TG_ASSIGN_OR_RETURN(std::string_view arch, r.field("architecture"));
  TG_ASSIGN_OR_RETURN(std::string_view meta, r.field("launch metadata"));
  TG_ASSIGN_OR_RETURN(std::string_view ptx, r.field("PTX"));
  TG_ASSIGN_OR_RETURN(std::string_view cubin, r.field("cubin"));
  TG_RETURN_IF_ERROR(r.finish());
  e.arch = arch;
  TG_ASSIGN_OR_RETURN(e.info, parse_metadata(std::string(meta)));
  e.ptx = ptx;
  e.cubin = cubin;
  if (e.arch.rfind("sm_", 0) != 0 || e.cubin.empty()) return corrupt("no architecture or no cubin");
  return e;
}

}  // namespace tegula::cuda
