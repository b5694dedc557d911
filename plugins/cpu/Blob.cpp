/// \file
/// Writing and checking CPU executables (see Blob.h).
#include "plugins/cpu/Blob.h"

#include <cstdint>

#include "plugins/support/Container.h"

namespace tegula::cpu {
namespace {

constexpr char kMagic[] = "tgcpuexe";
/// 2: the fields moved into the SDK container (plugins/support/Container.h).
constexpr uint32_t kFormatVersion = 2;
/// More scratch per core than any kernel lowered for host_cpu can ask for (its shared and
/// fragment buffers are bounded by the target's shared memory); a larger size in a blob is
/// damage, and would wrap when the pool rounds it up.
constexpr uint64_t kMaxArenaBytes = uint64_t(1) << 32;

Status corrupt(const std::string& why) { return error(ErrorCode::Corrupt, "cpu executable: " + why); }

}  // namespace

std::string write_blob(const BlobContents& c) {
  return plugin::ContainerWriter(kMagic, kFormatVersion)
      .field(c.host_identity)
      .field(c.host_brand)
      .field(c.entry)
      .field(c.options)
      .u64(c.arena_bytes)
      .field(c.ir_text)
      .field(c.object)
      .finish();
}

Result<BlobContents> read_blob(std::string_view bytes, const std::string& host_identity) {
  TG_ASSIGN_OR_RETURN(plugin::ContainerReader r,
                      plugin::ContainerReader::open(bytes.data(), bytes.size(), kMagic, kFormatVersion, "cpu executable"));
  BlobContents c;
  TG_ASSIGN_OR_RETURN(std::string_view identity, r.field("host identity"));
  TG_ASSIGN_OR_RETURN(std::string_view brand, r.field("host brand"));
  TG_ASSIGN_OR_RETURN(std::string_view entry, r.field("entry symbol"));
  TG_ASSIGN_OR_RETURN(std::string_view options, r.field("options"));
  TG_ASSIGN_OR_RETURN(c.arena_bytes, r.u64("arena bytes"));
  TG_ASSIGN_OR_RETURN(std::string_view ir_text, r.field("lowered IR"));
  TG_ASSIGN_OR_RETURN(std::string_view object, r.field("object code"));
  TG_RETURN_IF_ERROR(r.finish());
  c.host_identity = identity;
  c.host_brand = brand;
  c.entry = entry;
  c.options = options;
  c.ir_text = ir_text;
  c.object = object;
  if (c.arena_bytes > kMaxArenaBytes)
    return corrupt("scratch of " + std::to_string(c.arena_bytes) + " bytes per core (at most " +
                   std::to_string(kMaxArenaBytes) + ")");
  if (c.host_identity != host_identity)
    return corrupt("compiled for another CPU (" + c.host_brand + "); it must be compiled again for this one");
  return c;
}

}  // namespace tegula::cpu
