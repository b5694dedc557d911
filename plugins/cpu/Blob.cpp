/// \file
/// Writing and checking CPU executables (see Blob.h).
#include "plugins/cpu/Blob.h"

#include <cstdint>
#include <cstring>

#include "core/Sha256.h"

namespace tegula::cpu {
namespace {

constexpr char kMagic[8] = {'t', 'g', 'c', 'p', 'u', 'e', 'x', 'e'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kHeaderSize = 24;
constexpr size_t kDigestSize = 32;
/// More scratch per core than any kernel lowered for host_cpu can ask for (its shared and
/// fragment buffers are bounded by the target's shared memory); a larger size in a blob is
/// damage, and would wrap when the pool rounds it up.
constexpr uint64_t kMaxArenaBytes = uint64_t(1) << 32;

void put_le(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char((value >> (8 * i)) & 0xff));
}

uint64_t get_le(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(p[i])) << (8 * i);
  return v;
}

void put_field(std::string& out, std::string_view field) {
  put_le(out, field.size(), 8);
  out.append(field);
}

/// Reads length-prefixed fields from [pos, end).
struct FieldReader {
  std::string_view bytes;
  size_t pos;
  size_t end;
  bool ok = true;

  std::string field() {
    if (!ok || end - pos < 8) return fail();
    uint64_t n = get_le(bytes.data() + pos, 8);
    pos += 8;
    if (n > end - pos) return fail();
    std::string s(bytes.substr(pos, size_t(n)));
    pos += size_t(n);
    return s;
  }
  std::string fail() {
    ok = false;
    return "";
  }
};

Status corrupt(const std::string& why) { return error(ErrorCode::Corrupt, why); }

}  // namespace

std::string write_blob(const BlobContents& c) {
  std::string out(kMagic, sizeof(kMagic));
  put_le(out, kFormatVersion, 4);
  put_le(out, 0, 4);
  put_le(out, 0, 8);  // total size, patched below
  put_field(out, c.host_identity);
  put_field(out, c.host_brand);
  put_field(out, c.entry);
  put_field(out, c.options);
  std::string arena;
  put_le(arena, c.arena_bytes, 8);
  put_field(out, arena);
  put_field(out, c.ir_text);
  put_field(out, c.object);
  uint64_t total = out.size() + kDigestSize;
  for (int i = 0; i < 8; ++i) out[16 + i] = char((total >> (8 * i)) & 0xff);
  std::array<uint8_t, 32> digest = Sha256().update(out).digest();
  out.append(reinterpret_cast<const char*>(digest.data()), digest.size());
  return out;
}

Result<BlobContents> read_blob(std::string_view bytes, const std::string& host_identity) {
  if (bytes.size() < kHeaderSize + kDigestSize || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return corrupt("not a cpu executable (bad magic)");
  uint32_t version = uint32_t(get_le(bytes.data() + 8, 4));
  if (version != kFormatVersion)
    return corrupt("cpu executable format " + std::to_string(version) + ", this plugin reads " +
                   std::to_string(kFormatVersion));
  if (get_le(bytes.data() + 16, 8) != bytes.size()) return corrupt("the size does not match the header (truncated?)");
  size_t body = bytes.size() - kDigestSize;
  std::array<uint8_t, 32> digest = Sha256().update(bytes.substr(0, body)).digest();
  if (std::memcmp(digest.data(), bytes.data() + body, kDigestSize) != 0) return corrupt("checksum mismatch (damaged bytes)");
  FieldReader r{bytes, kHeaderSize, body};
  BlobContents c;
  c.host_identity = r.field();
  c.host_brand = r.field();
  c.entry = r.field();
  c.options = r.field();
  std::string arena = r.field();
  c.ir_text = r.field();
  c.object = r.field();
  if (!r.ok || r.pos != body || arena.size() != 8) return corrupt("malformed fields");
  c.arena_bytes = get_le(arena.data(), 8);
  if (c.arena_bytes > kMaxArenaBytes)
    return corrupt("scratch of " + std::to_string(c.arena_bytes) + " bytes per core (at most " +
                   std::to_string(kMaxArenaBytes) + ")");
  if (c.host_identity != host_identity)
    return corrupt("compiled for another CPU (" + c.host_brand + "); it must be compiled again for this one");
  return c;
}

}  // namespace tegula::cpu
