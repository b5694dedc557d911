#include "runtime/CompileCache.h"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/Files.h"
#include "core/Sha256.h"
#include "core/Xxh64.h"

namespace tegula::runtime {
namespace {

constexpr char kMagic[8] = {'T', 'G', 'K', 'C', 'A', 'C', 'H', 'E'};
/// 4: the payload's check is XXH64 (core/Xxh64.h), no longer SHA-256: an entry is trusted by
/// its owner and permissions (untrusted()), so its digest only catches damage, and hashing a
/// large executable was most of a cache hit. Layout: magic 8, version 4, binding length 4,
/// payload length 8, XXH64 of the payload 8, key 32, then the binding and the payload.
constexpr uint32_t kEntryVersion = 4;
constexpr size_t kHeaderSize = kCacheEntryHeaderBytes;
constexpr size_t kDigestAt = kCacheEntryDigestAt;
constexpr size_t kKeyAt = kCacheEntryKeyAt;
/// Bumped whenever what goes into a key, or how an entry is laid out, changes.
constexpr const char* kKeyFormat = "tegula compile cache 2";

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

std::string hex_to_raw(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(char(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

Status corrupt(const std::string& why) { return error(ErrorCode::Corrupt, why); }

/// The GNU build ID note of the loaded object whose ELF header is at `base`, as hex, or "".
std::string build_id_at(const void* base) {
  struct Search {
    const void* base;
    std::string id;
  } search{base, ""};
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        auto* s = static_cast<Search*>(data);
        bool found = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD && ph.p_offset == 0)
            found = found || reinterpret_cast<const void*>(info->dlpi_addr + ph.p_vaddr) == s->base;
        }
        if (!found) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          const char* at = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
          const char* end = at + ph.p_memsz;
          while (at + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) note;
            std::memcpy(&note, at, sizeof note);
            const char* name = at + sizeof note;
            const char* desc = name + ((note.n_namesz + 3) & ~3u);
            if (desc + note.n_descsz > end) break;
            if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
              static const char* hex = "0123456789abcdef";
              for (uint32_t b = 0; b < note.n_descsz; ++b) {
                s->id.push_back(hex[uint8_t(desc[b]) >> 4]);
                s->id.push_back(hex[uint8_t(desc[b]) & 15]);
              }
              return 1;
            }
            at = desc + ((note.n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &search);
  return search.id;
}

std::string file_identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  return path + ":" + std::to_string(uint64_t(st.st_dev)) + ":" + std::to_string(uint64_t(st.st_ino)) + ":" +
         std::to_string(uint64_t(st.st_size)) + ":" + std::to_string(int64_t(st.st_mtim.tv_sec)) + "." +
         std::to_string(int64_t(st.st_mtim.tv_nsec));
}

}  // namespace

const std::string& runtime_build_identity() {
  // Whatever lowers a kernel is linked in the same object as this function (the program, or
  // libtegula.so), so that object's build decides what the lowering gives.
  static const std::string identity = [] {
    Dl_info info{};
    if (::dladdr(reinterpret_cast<const void*>(&runtime_build_identity), &info) == 0) return file_identity("/proc/self/exe");
    std::string id = build_id_at(info.dli_fbase);
    if (!id.empty()) return "build-id " + id;
    std::string file = info.dli_fname ? file_identity(info.dli_fname) : "";
    return file.empty() ? file_identity("/proc/self/exe") : file;
  }();
  return identity;
}

std::string cache_key(const CacheKeyParts& p) {
  Sha256 h;
  add_part(h, "format", kKeyFormat);
  add_part(h, "ir", p.ir);
  add_part(h, "lowering", p.lowering);
  add_part(h, "runtime_build", p.runtime_build);
  add_part(h, "target", p.target_hash);
  add_part(h, "plugin", p.plugin_name);
  add_part(h, "plugin_version", p.plugin_version);
  add_part(h, "plugin_build", p.plugin_build);
  add_part(h, "abi", std::to_string(p.abi_version));
  add_part(h, "options", p.options);
  return h.hex();
}

std::string cache_binding(const CacheKeyParts& p) {
  auto digest = [](const std::string& s) { return Sha256().update(s).hex(); };
  return "ir " + digest(p.ir) + "\nlowering " + digest(p.lowering) + "\nruntime " + digest(p.runtime_build) + "\ntarget " + p.target_hash + "\nplugin " + p.plugin_name + "\nversion " +
         p.plugin_version + "\nbuild " + digest(p.plugin_build) + "\nabi " + std::to_string(p.abi_version) + "\noptions " +
         digest(p.options) + "\n";
}

namespace {

/// The first line where two bindings differ, for the log: "ir" says another kernel.
std::string binding_difference(const std::string& recorded, const std::string& wanted) {
  size_t a = 0, b = 0;
  while (a < recorded.size() || b < wanted.size()) {
    size_t ea = recorded.find('\n', a), eb = wanted.find('\n', b);
    std::string la = recorded.substr(a, ea == std::string::npos ? std::string::npos : ea - a);
    std::string lb = wanted.substr(b, eb == std::string::npos ? std::string::npos : eb - b);
    if (la != lb) {
      std::string name = lb.substr(0, lb.find(' '));
      return name.empty() ? "its origin" : name;
    }
    if (ea == std::string::npos || eb == std::string::npos) break;
    a = ea + 1;
    b = eb + 1;
  }
  return "its origin";
}

/// mkdir of one folder, private to this user; an existing folder is left as it is.
Status make_private_dir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST) return Status::ok();
  return error(ErrorCode::Io, "cannot create '" + dir + "': " + std::strerror(errno));
}

}  // namespace

uint64_t resolve_cache_limit(const Env& env, const Log& log) {
  const std::string* v = env.get("TEGULA_CACHE_MAX_BYTES");
  if (!v) return kDefaultCacheLimit;
  const std::string& text = *v;
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  std::string suffix = text.substr(digits);
  int shift = suffix.empty() ? 0 : suffix == "K" ? 10 : suffix == "M" ? 20 : suffix == "G" ? 30 : -1;
  if (digits == 0 || digits > 15 || shift < 0) {
    log.warn("TEGULA_CACHE_MAX_BYTES='" + text + "' is not a size (digits, then K, M or G): using 1G");
    return kDefaultCacheLimit;
  }
  uint64_t value = std::stoull(text.substr(0, digits));
  if (value > (UINT64_MAX >> shift)) return UINT64_MAX;  // larger than any disk: no limit
  return value << shift;
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

std::string encode_cache_entry(const std::string& key, const std::string& payload, const std::string& binding) {
  std::string out(kMagic, sizeof(kMagic));
  put_le(out, kEntryVersion, 4);
  put_le(out, binding.size(), 4);
  put_le(out, payload.size(), 8);
  put_le(out, xxh64(payload), 8);
  out += hex_to_raw(key);
  out += binding;
  out += payload;
  return out;
}

Result<std::string> decode_cache_entry(const std::string& key, std::string bytes, const std::string& binding) {
  if (bytes.size() < kHeaderSize) return corrupt("shorter than the entry header (" + std::to_string(bytes.size()) + " bytes)");
  if (std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) return corrupt("bad magic");
  uint64_t version = get_le(bytes, 8, 4);
  if (version != kEntryVersion)
    return corrupt("entry format " + std::to_string(version) + ", expected " + std::to_string(kEntryVersion));
  uint64_t binding_length = get_le(bytes, 12, 4);
  uint64_t length = get_le(bytes, 16, 8);
  uint64_t body = bytes.size() - kHeaderSize;
  if (binding_length > body || length != body - binding_length)
    return corrupt("payload is " + std::to_string(body - std::min(body, binding_length)) + " bytes, the header says " +
                   std::to_string(length) + " (truncated?)");
  if (bytes.compare(kKeyAt, 32, hex_to_raw(key)) != 0) return corrupt("the entry belongs to another key");
  std::string_view payload = std::string_view(bytes).substr(kHeaderSize + binding_length);
  if (get_le(bytes, kDigestAt, 8) != xxh64(payload)) return corrupt("payload digest mismatch");
  std::string_view recorded = std::string_view(bytes).substr(kHeaderSize, binding_length);
  if (recorded != binding)
    return corrupt("the executable was compiled from something else than this request (" +
                   binding_difference(std::string(recorded), binding) + " differs)");
  bytes.erase(0, kHeaderSize + binding_length);
  return bytes;
}

std::string CompileCache::untrusted(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return "";  // absent: nothing to trust or distrust
  if (st.st_uid != ::geteuid()) return "'" + path + "' belongs to another user (uid " + std::to_string(st.st_uid) + ")";
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return "'" + path + "' is writable by other users";
  return "";
}

std::string CompileCache::entry_path(const std::string& key) const { return dir_ + "/kernels-v1/" + key + ".bin"; }

CompileCache::Lookup CompileCache::lookup(const std::string& key, std::string* payload, const std::string& binding) const {
  if (!enabled()) return Lookup::Miss;
  std::string path = entry_path(key);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    log_.debug("compile cache miss: " + path);
    return Lookup::Miss;
  }
  for (const std::string& p : {dir_, dir_ + "/kernels-v1", path}) {
    std::string why = untrusted(p);
    if (why.empty()) continue;
    log_.warn("compile cache: not using " + path + ": " + why + " (anyone who can write it chooses the code that runs)");
    return Lookup::Rejected;
  }
  Result<std::string> bytes = read_file(path);
  Result<std::string> decoded =
      bytes.is_ok() ? decode_cache_entry(key, std::move(bytes).value(), binding) : Result<std::string>(bytes.status());
  if (!decoded.is_ok()) {
    remove(key, decoded.status().message());
    return Lookup::Rejected;
  }
  log_.debug("compile cache hit: " + path);
  // Now: recently used. An entry used within the last minute is recent enough for eviction
  // order, so a kernel compiled over and over costs no metadata write each time.
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  if (now.tv_sec - st.st_mtim.tv_sec >= kTouchAfterSeconds) ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  *payload = std::move(decoded).value();
  return Lookup::Hit;
}

void CompileCache::store(const std::string& key, const std::string& payload, const std::string& binding) const {
  if (!enabled()) return;
  std::string path = entry_path(key);
  // The folders above the cache folder are the user's; the cache folder and its kernels
  // folder are created private.
  size_t slash = dir_.find_last_of('/');
  Status st = slash == std::string::npos || slash == 0 ? Status::ok() : make_dirs(dir_.substr(0, slash));
  if (st.is_ok()) st = make_private_dir(dir_);
  if (st.is_ok()) st = make_private_dir(dir_ + "/kernels-v1");
  for (const std::string& p : {dir_, dir_ + "/kernels-v1"}) {
    std::string why = st.is_ok() ? untrusted(p) : "";
    if (!why.empty()) st = error(ErrorCode::Io, why);
  }
  if (st.is_ok()) st = write_file_atomic(path, encode_cache_entry(key, payload, binding));
  if (st.is_ok()) (void)::chmod(path.c_str(), 0600);  // whatever the umask: lookups refuse shared entries
  if (!st.is_ok()) {
    log_.warn("compile cache: cannot store " + path + ": " + st.message());
    return;
  }
  log_.debug("compile cache: stored " + path);
  std::lock_guard<std::mutex> lock(usage_->mu);
  // The running total is this process's estimate; other processes sharing the folder, and
  // entries stored over or removed, make it drift, and every scan sets it right again.
  if (usage_->counted) {
    usage_->bytes += kHeaderSize + payload.size();
    if (usage_->bytes <= max_bytes_) return;
  }
  usage_->bytes = evict(path);
  usage_->counted = true;
}

uint64_t CompileCache::evict(const std::string& keep) const {
  struct Entry {
    std::string path;
    uint64_t bytes = 0;
    int64_t mtime_ns = 0;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::string folder = dir_ + "/kernels-v1";
  DIR* d = ::opendir(folder.c_str());
  if (!d) return 0;
  while (const dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    // Entries only (64 hex digits and ".bin"): never a temporary file another process writes.
    if (name.size() != 68 || name.compare(64, 4, ".bin") != 0 || name.find_first_not_of("0123456789abcdef") != 64) continue;
    struct stat st {};
    std::string path = folder + "/" + name;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    entries.push_back({path, uint64_t(st.st_size), int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec});
    total += uint64_t(st.st_size);
  }
  ::closedir(d);
  log_.debug("compile cache: scanned " + std::to_string(entries.size()) + " entries, " + std::to_string(total) +
             " bytes (limit " + std::to_string(max_bytes_) + ")");
  if (total <= max_bytes_) return total;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.mtime_ns < b.mtime_ns; });
  for (const Entry& e : entries) {
    if (total <= max_bytes_) break;
    if (e.path == keep) continue;
    // Another process may have removed it already: either way it no longer counts.
    ::unlink(e.path.c_str());
    total -= e.bytes;
    log_.debug("compile cache: evicted " + e.path + " (limit " + std::to_string(max_bytes_) + " bytes)");
  }
  return total;
}

void CompileCache::remove(const std::string& key, const std::string& reason) const {
  std::string path = entry_path(key);
  log_.warn("compile cache: dropping " + path + ": " + reason);
  ::unlink(path.c_str());
}

}  // namespace tegula::runtime
