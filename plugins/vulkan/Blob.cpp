/// \file
/// Writing and checking Vulkan executables (see Blob.h).
#include "plugins/vulkan/Blob.h"

#include <cstdint>

#include "plugins/support/Container.h"
#include "plugins/vulkan/spirv/Spirv.h"

namespace tegula::vulkan {
namespace {

constexpr char kMagic[8] = {'t', 'g', 'v', 'k', 's', 'p', 'v', 0};
/// 2: the fields moved into the SDK container (plugins/support/Container.h).
// 3: the block base (and rasterised grid) push constants of split dispatches.
// 4: the fault word (a flag in the interface) and the fault sites' field.
constexpr uint32_t kVersion = 4;
/// At most this many fault sites, each a line of at most kMaxFaultSite bytes.
constexpr size_t kMaxFaultSites = 4096, kMaxFaultSite = 4096;

void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

/// Reads little-endian u32s from one field; past its end it reads 0 and clears ok.
struct WordReader {
  std::string_view bytes;
  size_t at = 0;
  bool ok = true;

  uint32_t u32() {
    if (!ok || bytes.size() - at < 4) {
      ok = false;
      return 0;
    }
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(bytes[at + size_t(i)])) << (8 * i);
    at += 4;
    return v;
  }
};

Status corrupt(const std::string& why) { return error(ErrorCode::Corrupt, "vulkan executable: " + why); }

}  // namespace

std::string write_executable(const Executable& e) {
  std::string iface;
  const ShaderInterface& i = e.iface;
  for (uint32_t v : {i.spirv_version, i.workgroup_size, i.shared_bytes, i.push_bytes, i.subgroup_size}) put_u32(iface, v);
  put_u32(iface, uint32_t(i.bindings.size()));
  for (uint32_t b : i.bindings) put_u32(iface, b);
  put_u32(iface, uint32_t(i.push.size()));
  for (const PushEntry& p : i.push) {
    put_u32(iface, p.arg);
    put_u32(iface, p.kind);
    put_u32(iface, p.offset);
  }
  put_u32(iface, i.fault_word ? 1 : 0);
  std::string sites;
  for (const std::string& site : i.fault_sites) sites += site + "\n";
  std::string words;
  for (uint32_t w : e.words) put_u32(words, w);
  return plugin::ContainerWriter(std::string_view(kMagic, sizeof(kMagic)), kVersion)
      .field(e.target_name)
      .field(e.target_hash)
      .field(e.kernel_name)
      .field(e.ir_text)
      .field(iface)
      .field(sites)
      .field(words)
      .finish();
}

Result<Executable> read_executable(const void* data, size_t size) {
  auto r = plugin::ContainerReader::open(data, size, std::string_view(kMagic, sizeof(kMagic)), kVersion, "vulkan executable");
  if (!r.is_ok()) return r.status();
  Executable e;
  Result<std::string_view> fields[7] = {r->field("target name"), r->field("target hash"), r->field("kernel name"),
                                        r->field("lowered IR"),  r->field("interface"),   r->field("fault sites"),
                                        r->field("SPIR-V")};
  for (const auto& f : fields)
    if (!f.is_ok()) return f.status();
  TG_RETURN_IF_ERROR(r->finish());
  e.target_name = *fields[0];
  e.target_hash = *fields[1];
  e.kernel_name = *fields[2];
  e.ir_text = *fields[3];
  WordReader w{*fields[4]};
  ShaderInterface& i = e.iface;
  i.spirv_version = w.u32();
  i.workgroup_size = w.u32();
  i.shared_bytes = w.u32();
  i.push_bytes = w.u32();
  i.subgroup_size = w.u32();
  uint32_t nb = w.u32();
  if (!w.ok || nb > 4096) return corrupt("bad binding count");
  for (uint32_t k = 0; k < nb; ++k) i.bindings.push_back(w.u32());
  uint32_t np = w.u32();
  if (!w.ok || np > 4096) return corrupt("bad push-constant count");
  for (uint32_t k = 0; k < np; ++k) {
    PushEntry pe;
    pe.arg = w.u32();
    pe.kind = w.u32();
    pe.offset = w.u32();
    // In 64 bits: a forged offset near 2^32 must not wrap around the check.
    if (pe.kind > kLastPushKind || (push_entry_is_grid(pe.kind) && pe.arg > 2) || uint64_t(pe.offset) + push_entry_bytes(pe.kind) > i.push_bytes) w.ok = false;
    i.push.push_back(pe);
  }
  if (!w.ok) return corrupt("a push constant lies outside the push-constant block");
  uint32_t fault_word = w.u32();
  if (!w.ok || fault_word > 1) return corrupt("bad fault-word flag");
  i.fault_word = fault_word == 1;
  if (w.at != w.bytes.size()) return corrupt("trailing bytes in the interface");
  std::string_view sites = *fields[5];
  while (!sites.empty()) {
    size_t end = sites.find('\n');
    if (end == std::string_view::npos || end == 0 || end > kMaxFaultSite || i.fault_sites.size() == kMaxFaultSites)
      return corrupt("bad fault sites");
    i.fault_sites.emplace_back(sites.substr(0, end));
    sites.remove_prefix(end + 1);
  }
  if (!i.fault_word && !i.fault_sites.empty()) return corrupt("fault sites without a fault word");
  std::string_view spirv = *fields[6];
  if (spirv.size() % 4 != 0 || spirv.size() < 20) return corrupt("bad SPIR-V length");
  WordReader sw{spirv};
  for (size_t k = 0; k < spirv.size() / 4; ++k) e.words.push_back(sw.u32());
  if (e.words[0] != spv::kMagic) return corrupt("no SPIR-V magic number");
  return e;
}

}  // namespace tegula::vulkan
