/// \file
/// The on-disk compile cache: executables a plugin compiled, keyed by everything that
/// decides their bytes, so a second process (or a second run) skips the plugin's compiler.
///
/// Key: SHA-256 over a cache format version and everything the request decides an
/// executable by: the kernel's IR text as given, the lowering options of the variant, the
/// build of the runtime that lowers it (runtime_build_identity), the target description's
/// hash, the plugin's name, version, build and negotiated ABI version, and the compile
/// options. So a hit is found from the request alone: no parse and no lowering.
///
/// Entry file <dir>/kernels-v1/<key>.bin:
///
///   bytes 0-7    magic "TGKCACHE"
///   bytes 8-11   entry format version (4), little-endian
///   bytes 12-15  binding length B, little-endian
///   bytes 16-23  payload length, little-endian
///   bytes 24-31  XXH64 of the payload, little-endian (core/Xxh64.h: damage, not forgery,
///                which the folder's ownership and permissions guard against; SHA-256
///                until format 3, when it was most of a hit's time for a large executable)
///   bytes 32-63  the key (so a file renamed to another key is not believed)
///   bytes 64-    the binding (B bytes): what the executable was compiled from, as text
///                (cache_binding: digests of the IR, the lowering, the runtime build and
///                the options, the target hash, the plugin's name, version, build and
///                ABI), compared at load with the
///                request's, so an executable copied under another kernel's key (with
///                the key field rewritten) is refused and recompiled
///   then         the payload: the kernel's facts (its launch header and written
///                tensors), then the plugin's executable bytes (runtime/KernelFacts.h)
///
/// The folder is created private (0700). An entry is used only when the cache folder, its
/// kernels folder and the entry file belong to this user and are writable by nobody else:
/// anyone who can write an entry can make this process run any code in the plugin, which
/// no check of an entry's own contents can prevent.
///
/// Entries are written with write_file_atomic, so a crash leaves an old entry or none, but
/// disks and people still damage files: an entry that fails any check is logged, deleted
/// and rebuilt, never handed to a plugin. The cache is an optimisation only; failing to
/// write it is logged and otherwise ignored.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "core/Status.h"
#include "runtime/Env.h"
#include "runtime/Log.h"

namespace tegula::runtime {

struct CacheKeyParts {
  std::string ir;        ///< the kernel's IR text, as compiled
  std::string lowering;  ///< the variant's lowering options (lowering_key in Compile.cpp)
  std::string runtime_build;  ///< runtime_build_identity()
  std::string target_hash;
  std::string plugin_name;
  std::string plugin_version;
  uint32_t abi_version = 0;
  std::string options;
  std::string plugin_build;  ///< PluginInstance::library_identity
};

/// The build of the code linked with this function (the runtime, and the lowering passes
/// with it): the ELF build ID of the object it is in, else that file's identity (path,
/// inode, size, modification time). Computed once.
const std::string& runtime_build_identity();

/// 64 hex characters.
std::string cache_key(const CacheKeyParts& parts);
/// What an entry records about its origin: one "name value" line per part, the large ones
/// (IR, lowering, runtime build, options, plugin build) as SHA-256 digests.
std::string cache_binding(const CacheKeyParts& parts);

/// The cache folder: `option` when given (the runtime options), else TEGULA_CACHE_DIR, else
/// $XDG_CACHE_HOME/tegula, else $HOME/.cache/tegula. "" when caching is off ("off", or no
/// home to put it in).
std::string resolve_cache_dir(const char* option, const Env& env);

/// The cache's size limit in bytes: TEGULA_CACHE_MAX_BYTES (a number with an optional K, M or
/// G suffix, powers of 1024), else 1 GiB. A value that does not parse is logged and ignored.
uint64_t resolve_cache_limit(const Env& env, const Log& log);
inline constexpr uint64_t kDefaultCacheLimit = uint64_t(1) << 30;

/// Where an entry's digest and key sit, and where its binding starts: for tests that damage
/// or rebuild an entry (the layout is kEntryVersion's, in CompileCache.cpp).
inline constexpr size_t kCacheEntryDigestAt = 24;
inline constexpr size_t kCacheEntryKeyAt = 32;
inline constexpr size_t kCacheEntryHeaderBytes = 64;

/// An entry's bytes for `payload`, and the payload back out of an entry (a Corrupt status
/// names what is wrong).
/// `binding` is what cache_binding gives for the request ("" for tests of the format alone).
std::string encode_cache_entry(const std::string& key, const std::string& payload, const std::string& binding = "");
/// (Takes the entry by value: the payload is what is left of it, with no second copy.)
Result<std::string> decode_cache_entry(const std::string& key, std::string bytes, const std::string& binding = "");

class CompileCache {
public:
  CompileCache() = default;
  CompileCache(std::string dir, Log log, uint64_t max_bytes = kDefaultCacheLimit)
      : dir_(std::move(dir)), log_(log), max_bytes_(max_bytes) {}

  bool enabled() const { return !dir_.empty(); }
  const std::string& dir() const { return dir_; }
  std::string entry_path(const std::string& key) const;

  enum class Lookup { Miss, Hit, Rejected };
  /// Hit fills *payload and marks the entry as just used (its modification time set to now,
  /// unless it is already less than kTouchAfterSeconds old). Rejected: the entry was
  /// damaged; it has been logged and deleted.
  /// Rejected too when the entry records another origin than `binding`, or when the folder
  /// or file is writable by another user (then nothing is deleted: it is not ours).
  Lookup lookup(const std::string& key, std::string* payload, const std::string& binding = "") const;
  /// Store, then evict the least recently used entries (by modification time, which a hit
  /// refreshes) until the folder holds at most the limit; the new entry always stays. The
  /// folder is scanned on the first store and then only when the running total of what this
  /// cache stored passes the limit, so stores far below it cost no directory walk.
  void store(const std::string& key, const std::string& payload, const std::string& binding = "") const;
  /// Delete an entry the plugin refused (TG_ERR_CORRUPT).
  void remove(const std::string& key, const std::string& reason) const;

  /// A hit refreshes an entry's modification time only when it is at least this old.
  static constexpr int64_t kTouchAfterSeconds = 60;

private:
  /// Why `path` (a folder of the cache or an entry) cannot be trusted, or "".
  static std::string untrusted(const std::string& path);
  /// Scan the folder and evict down to the limit; returns the bytes left.
  uint64_t evict(const std::string& keep) const;

  std::string dir_;
  Log log_;
  uint64_t max_bytes_ = kDefaultCacheLimit;
  /// The folder's size as this cache last counted it, plus what it stored since.
  struct Usage {
    std::mutex mu;
    bool counted = false;
    uint64_t bytes = 0;
  };
  std::unique_ptr<Usage> usage_ = std::make_unique<Usage>();
};

}  // namespace tegula::runtime
