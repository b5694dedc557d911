/// \file
/// The executable format; see Blob.h.
#include "plugins/cuda/Blob.h"

#include <cstdint>
#include <cstring>
#include <sstream>

#include "core/Sha256.h"

namespace tegula::cuda {
namespace {

constexpr char kMagic[8] = {'t', 'g', 'c', 'u', 'd', 'a', 'e', 'x'};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeader = 56;

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

uint64_t get_le(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

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
  std::string payload;
  const std::string meta = metadata(e.info);
  for (const std::string* part : {&e.arch, &meta, &e.ptx, &e.cubin}) {
    put_le(payload, part->size(), 8);
    payload += *part;
  }
  std::string out(kMagic, sizeof kMagic);
  put_le(out, kVersion, 4);
  put_le(out, 0, 4);
  put_le(out, payload.size(), 8);
  Sha256 h;
  h.update(payload);
  auto d = h.digest();
  out.append(reinterpret_cast<const char*>(d.data()), d.size());
  out += payload;
  return out;
}

Result<Executable> decode_executable(const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  if (!p || size < kHeader || std::memcmp(p, kMagic, sizeof kMagic) != 0) return corrupt("not a cuda executable (bad magic)");
  uint32_t version = uint32_t(get_le(p + 8, 4));
  if (version != kVersion) return corrupt("format version " + std::to_string(version) + ", this plugin reads " + std::to_string(kVersion));
  uint64_t length = get_le(p + 16, 8);
  if (length != size - kHeader) return corrupt("length does not match the header (truncated?)");
  Sha256 h;
  h.update(p + kHeader, size - kHeader);
  auto d = h.digest();
  if (std::memcmp(d.data(), p + 24, 32) != 0) return corrupt("digest mismatch (the bytes were altered)");
  std::string parts[4];
  size_t at = kHeader;
  for (std::string& part : parts) {
    if (size - at < 8) return corrupt("truncated section");
    uint64_t n = get_le(p + at, 8);
    at += 8;
    if (n > size - at) return corrupt("section past the end");
    part.assign(reinterpret_cast<const char*>(p + at), size_t(n));
    at += size_t(n);
  }
  if (at != size) return corrupt("trailing bytes");
  Executable e;
  e.arch = parts[0];
  TG_ASSIGN_OR_RETURN(e.info, parse_metadata(parts[1]));
  e.ptx = parts[2];
  e.cubin = parts[3];
  if (e.arch.rfind("sm_", 0) != 0 || e.cubin.empty()) return corrupt("no architecture or no cubin");
  return e;
}

}  // namespace tegula::cuda
