#include "runtime/CompileCache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "core/Files.h"
#include "core/Sha256.h"

namespace tegula::runtime {
namespace {

constexpr char kMagic[8] = {'T', 'G', 'K', 'C', 'A', 'C', 'H', 'E'};
constexpr uint32_t kEntryVersion = 1;
constexpr size_t kHeaderSize = 88;
/// Bumped whenever what goes into a key, or how an entry is laid out, changes.
constexpr const char* kKeyFormat = "tegula compile cache 1";

void put_le(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char((value >> (8 * i)) & 0xff));
}

uint64_t get_le(const std::string& s, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(s[at + size_t(i)])) << (8 * i);
  return v;
}

/// Length-prefixed, so no two different part lists hash the same text.
void add_part(Sha256& h, const char* name, const std::string& value) {
  std::string head = std::string(name) + ":" + std::to_string(value.size()) + ":";
  h.update(head);
  h.update(value);
  h.update("\n");
}

std::string raw_digest(const std::string& data) {
  auto d = Sha256().update(data).digest();
  return std::string(reinterpret_cast<const char*>(d.data()), d.size());
}

std::string hex_to_raw(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(char(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

Status corrupt(const std::string& why) { return error(ErrorCode::Corrupt, why); }

}  // namespace

std::string cache_key(const CacheKeyParts& p) {
  Sha256 h;
  add_part(h, "format", kKeyFormat);
  add_part(h, "ir", p.lowered_ir);
  add_part(h, "target", p.target_hash);
  add_part(h, "plugin", p.plugin_name);
  add_part(h, "plugin_version", p.plugin_version);
  add_part(h, "plugin_build", p.plugin_build);
  add_part(h, "abi", std::to_string(p.abi_version));
  add_part(h, "options", p.options);
  return h.hex();
}

std::string resolve_cache_dir(const char* option, const Env& env) {
  std::string dir;
  if (option) dir = option;
  else if (const std::string* v = env.get("TEGULA_CACHE_DIR")) dir = *v;
  else if (const std::string* xdg = env.get("XDG_CACHE_HOME")) dir = *xdg + "/tegula";
  else if (const std::string* home = env.get("HOME")) dir = *home + "/.cache/tegula";
  if (dir == "off") return "";
  return dir;
}

std::string encode_cache_entry(const std::string& key, const std::string& payload) {
  std::string out(kMagic, sizeof(kMagic));
  put_le(out, kEntryVersion, 4);
  put_le(out, 0, 4);
  put_le(out, payload.size(), 8);
  out += raw_digest(payload);
  out += hex_to_raw(key);
  out += payload;
  return out;
}

Result<std::string> decode_cache_entry(const std::string& key, const std::string& bytes) {
  if (bytes.size() < kHeaderSize) return corrupt("shorter than the entry header (" + std::to_string(bytes.size()) + " bytes)");
  if (std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) return corrupt("bad magic");
  uint64_t version = get_le(bytes, 8, 4);
  if (version != kEntryVersion) return corrupt("entry format " + std::to_string(version) + ", expected 1");
  uint64_t length = get_le(bytes, 16, 8);
  if (length != bytes.size() - kHeaderSize)
    return corrupt("payload is " + std::to_string(bytes.size() - kHeaderSize) + " bytes, the header says " +
                   std::to_string(length) + " (truncated?)");
  if (bytes.compare(56, 32, hex_to_raw(key)) != 0) return corrupt("the entry belongs to another key");
  std::string payload = bytes.substr(kHeaderSize);
  if (bytes.compare(24, 32, raw_digest(payload)) != 0) return corrupt("payload digest mismatch");
  return payload;
}

std::string CompileCache::entry_path(const std::string& key) const { return dir_ + "/kernels-v1/" + key + ".bin"; }

CompileCache::Lookup CompileCache::lookup(const std::string& key, std::string* payload) const {
  if (!enabled()) return Lookup::Miss;
  std::string path = entry_path(key);
  if (!file_exists(path)) {
    log_.debug("compile cache miss: " + path);
    return Lookup::Miss;
  }
  Result<std::string> bytes = read_file(path);
  Result<std::string> decoded = bytes.is_ok() ? decode_cache_entry(key, *bytes) : Result<std::string>(bytes.status());
  if (!decoded.is_ok()) {
    remove(key, decoded.status().message());
    return Lookup::Rejected;
  }
  log_.debug("compile cache hit: " + path);
  *payload = std::move(decoded).value();
  return Lookup::Hit;
}

void CompileCache::store(const std::string& key, const std::string& payload) const {
  if (!enabled()) return;
  std::string path = entry_path(key);
  Status st = make_dirs(dir_ + "/kernels-v1");
  if (st.is_ok()) st = write_file_atomic(path, encode_cache_entry(key, payload));
  if (!st.is_ok()) {
    log_.warn("compile cache: cannot store " + path + ": " + st.message());
    return;
  }
  log_.debug("compile cache: stored " + path);
}

void CompileCache::remove(const std::string& key, const std::string& reason) const {
  std::string path = entry_path(key);
  log_.warn("compile cache: dropping " + path + ": " + reason);
  ::unlink(path.c_str());
}

}  // namespace tegula::runtime
