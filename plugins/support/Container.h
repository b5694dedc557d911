/// \file
/// The executable container every in-tree plugin wraps its code in, so bytes from a stale
/// cache, another plugin or a damaged disk are refused (Corrupt, which makes the runtime
/// compile again) instead of run. All integers little-endian:
///
///   bytes 0-7    magic: the plugin's 8 bytes ("tgcpuexe")
///   bytes 8-11   format version: the plugin's own layout of the fields
///   bytes 12-15  zero
///   bytes 16-23  total size in bytes
///   bytes 24-31  XXH64 of bytes 56..end (core/Xxh64.h: a check against damage, as zstd's
///                frame checksum, at memory speed; whoever can write an executable can write
///                any digest, so a cryptographic one bought nothing and cost a cache hit of a
///                large executable most of its time)
///   bytes 32-55  zero
///   bytes 56-    fields, each a u64 length and that many bytes, in an order the plugin fixes
///
/// The header is checked before any field is read; a reader asks for the fields in order and
/// then for the end (no trailing bytes). Errors name the container ("cpu executable") and the
/// field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/Status.h"

namespace tegula::plugin {

/// Where the magic, version and digest sit, for tests that damage one of them.
constexpr size_t kContainerMagicBytes = 8;
constexpr size_t kContainerVersionAt = 8;
constexpr size_t kContainerSizeAt = 16;
constexpr size_t kContainerDigestAt = 24;
constexpr size_t kContainerHeaderBytes = 56;

class ContainerWriter {
 public:
  /// `magic` must be exactly 8 bytes.
  ContainerWriter(std::string_view magic, uint32_t version);
  ContainerWriter& field(std::string_view bytes);
  /// A field of 8 bytes holding `value`.
  ContainerWriter& u64(uint64_t value);
  /// The sealed container: the header with its size and digest, then the fields.
  std::string finish() const;

 private:
  std::string magic_;
  uint32_t version_;
  std::string body_;
};

class ContainerReader {
 public:
  /// Check magic, version, size and digest of [data, data + size); `what` names the
  /// container in errors ("cpu executable"). The bytes must outlive the reader.
  static Result<ContainerReader> open(const void* data, size_t size, std::string_view magic, uint32_t version,
                                      std::string what);
  /// The next field; `name` says which in errors.
  Result<std::string_view> field(const char* name);
  /// The next field, which must be 8 bytes.
  Result<uint64_t> u64(const char* name);
  /// Ok when every byte has been read.
  Status finish() const;

 private:
  ContainerReader(std::string_view body, std::string what) : body_(body), what_(std::move(what)) {}
  Status corrupt(const std::string& why) const;

  std::string_view body_;  ///< the fields
  size_t at_ = 0;
  std::string what_;
};

}  // namespace tegula::plugin
