#include "plugins/vulkan/Blob.h"

#include <cstdint>
#include <cstring>

#include "core/Sha256.h"
#include "plugins/vulkan/spirv/Spirv.h"

namespace tegula::vulkan {
namespace {

constexpr char kMagic[8] = {'t', 'g', 'v', 'k', 's', 'p', 'v', 0};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeader = 56;

void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

void put_string(std::string& out, const std::string& s) {
  put_u32(out, uint32_t(s.size()));
  out += s;
  while (out.size() % 4) out.push_back('\0');
}

struct Reader {
  const uint8_t* p;
  size_t size;
  size_t at;
  bool ok = true;

  uint32_t u32() {
    if (!ok || size - at < 4) {
      ok = false;
      return 0;
    }
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(p[at + size_t(i)]) << (8 * i);
    at += 4;
    return v;
  }
  std::string str() {
    uint32_t n = u32();
    size_t padded = (size_t(n) + 3) / 4 * 4;
    if (!ok || size - at < padded) {
      ok = false;
      return {};
    }
    std::string s(reinterpret_cast<const char*>(p + at), n);
    at += padded;
    return s;
  }
};

uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

Status corrupt(const std::string& why) { return error(ErrorCode::Corrupt, "not a valid vulkan executable: " + why); }

}  // namespace

std::string write_executable(const Executable& e) {
  std::string body;
  put_string(body, e.target_name);
  put_string(body, e.target_hash);
  put_string(body, e.kernel_name);
  put_string(body, e.ir_text);
  const ShaderInterface& i = e.iface;
  for (uint32_t v : {i.spirv_version, i.workgroup_size, i.shared_bytes, i.push_bytes, i.subgroup_size}) put_u32(body, v);
  put_u32(body, uint32_t(i.bindings.size()));
  for (uint32_t b : i.bindings) put_u32(body, b);
  put_u32(body, uint32_t(i.push.size()));
  for (const PushEntry& p : i.push) {
    put_u32(body, p.arg);
    put_u32(body, p.kind);
    put_u32(body, p.offset);
  }
  put_u32(body, uint32_t(e.words.size()));
  for (uint32_t w : e.words) put_u32(body, w);

  std::string out(kMagic, sizeof(kMagic));
  put_u32(out, kVersion);
  put_u32(out, 0);
  put_u64(out, kHeader + body.size());
  auto digest = Sha256().update(body).digest();
  out.append(reinterpret_cast<const char*>(digest.data()), digest.size());
  out += body;
  return out;
}

Result<Executable> read_executable(const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  if (!p || size < kHeader || std::memcmp(p, kMagic, sizeof(kMagic)) != 0) return corrupt("bad magic");
  Reader r{p, size, 8};
  uint32_t version = r.u32();
  if (version != kVersion)
    return corrupt("format version " + std::to_string(version) + ", this plugin reads " + std::to_string(kVersion));
  if (get_u64(p + 16) != size) return corrupt("its length does not match the header (truncated?)");
  auto digest = Sha256().update(p + kHeader, size - kHeader).digest();
  if (std::memcmp(digest.data(), p + 24, 32) != 0) return corrupt("checksum mismatch");
  r.at = kHeader;
  Executable e;
  e.target_name = r.str();
  e.target_hash = r.str();
  e.kernel_name = r.str();
  e.ir_text = r.str();
  ShaderInterface& i = e.iface;
  i.spirv_version = r.u32();
  i.workgroup_size = r.u32();
  i.shared_bytes = r.u32();
  i.push_bytes = r.u32();
  i.subgroup_size = r.u32();
  uint32_t nb = r.u32();
  if (!r.ok || nb > 4096) return corrupt("bad binding count");
  for (uint32_t k = 0; k < nb; ++k) i.bindings.push_back(r.u32());
  uint32_t np = r.u32();
  if (!r.ok || np > 4096) return corrupt("bad push-constant count");
  for (uint32_t k = 0; k < np; ++k) {
    PushEntry pe;
    pe.arg = r.u32();
    pe.kind = r.u32();
    pe.offset = r.u32();
    // In 64 bits: a forged offset near 2^32 must not wrap around the check.
    if (pe.kind > PushF64 || uint64_t(pe.offset) + push_entry_bytes(pe.kind) > i.push_bytes) r.ok = false;
    i.push.push_back(pe);
  }
  if (!r.ok) return corrupt("a push constant lies outside the push-constant block");
  uint32_t nw = r.u32();
  if (!r.ok || size_t(nw) * 4 != size - r.at || nw < 5) return corrupt("bad SPIR-V length");
  for (uint32_t k = 0; k < nw; ++k) e.words.push_back(r.u32());
  if (!r.ok || e.words[0] != spv::kMagic) return corrupt("no SPIR-V magic number");
  return e;
}

}  // namespace tegula::vulkan
