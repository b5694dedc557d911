/// \file
/// Writing and checking executable containers (see Container.h).
#include "plugins/support/Container.h"

#include <array>
#include <cstring>

#include "core/Xxh64.h"

namespace tegula::plugin {
namespace {

void put_le(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char((value >> (8 * i)) & 0xff));
}

uint64_t get_le(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

}  // namespace

ContainerWriter::ContainerWriter(std::string_view magic, uint32_t version) : magic_(magic), version_(version) {
  magic_.resize(kContainerMagicBytes, '\0');
}

ContainerWriter& ContainerWriter::field(std::string_view bytes) {
  put_le(body_, bytes.size(), 8);
  body_.append(bytes);
  return *this;
}

ContainerWriter& ContainerWriter::u64(uint64_t value) {
  std::string bytes;
  put_le(bytes, value, 8);
  return field(bytes);
}

std::string ContainerWriter::finish() const {
  std::string out = magic_;
  put_le(out, version_, 4);
  put_le(out, 0, 4);
  put_le(out, kContainerHeaderBytes + body_.size(), 8);
  put_le(out, xxh64(body_), 8);
  out.append(24, '\0');
  out += body_;
  return out;
}

Result<ContainerReader> ContainerReader::open(const void* data, size_t size, std::string_view magic, uint32_t version,
                                              std::string what) {
  const auto* p = static_cast<const uint8_t*>(data);
  auto corrupt = [&](const std::string& why) { return error(ErrorCode::Corrupt, what + ": " + why); };
  if (!p || size < kContainerHeaderBytes)
    return corrupt("not a " + what + " (" + std::to_string(size) + " bytes, shorter than the " +
                   std::to_string(kContainerHeaderBytes) + "-byte header)");
  if (magic.size() != kContainerMagicBytes || std::memcmp(p, magic.data(), kContainerMagicBytes) != 0)
    return corrupt("not a " + what + " (bad magic)");
  uint32_t got = uint32_t(get_le(p + kContainerVersionAt, 4));
  if (got != version)
    return corrupt("format version " + std::to_string(got) + ", this plugin reads " + std::to_string(version));
  if (get_le(p + kContainerVersionAt + 4, 4) != 0) return corrupt("reserved header bytes are not zero");
  uint64_t total = get_le(p + kContainerSizeAt, 8);
  if (total != size)
    return corrupt("the header says " + std::to_string(total) + " bytes, there are " + std::to_string(size) +
                   " (truncated?)");
  // An executable of the SHA-256 containers before 2026-12-04 fails here too, and is
  // compiled again.
  if (get_le(p + kContainerDigestAt, 8) != xxh64(p + kContainerHeaderBytes, size - kContainerHeaderBytes))
    return corrupt("digest mismatch (the bytes were altered)");
  for (size_t i = kContainerDigestAt + 8; i < kContainerHeaderBytes; ++i)
    if (p[i] != 0) return corrupt("reserved header bytes are not zero");
  std::string_view body(reinterpret_cast<const char*>(p + kContainerHeaderBytes), size - kContainerHeaderBytes);
  return ContainerReader(body, std::move(what));
}

Status ContainerReader::corrupt(const std::string& why) const { return error(ErrorCode::Corrupt, what_ + ": " + why); }

Result<std::string_view> ContainerReader::field(const char* name) {
  size_t left = body_.size() - at_;
  if (left < 8) return corrupt(std::string("field '") + name + "' is missing (" + std::to_string(left) + " bytes left)");
  uint64_t n = get_le(reinterpret_cast<const uint8_t*>(body_.data() + at_), 8);
  left -= 8;
  // Compared in 64 bits before any size_t arithmetic: a forged length near 2^64 must not wrap.
  if (n > left)
    return corrupt(std::string("field '") + name + "' claims " + std::to_string(n) + " bytes, " +
                   std::to_string(left) + " are left");
  std::string_view bytes = body_.substr(at_ + 8, size_t(n));
  at_ += 8 + size_t(n);
  return bytes;
}

Result<uint64_t> ContainerReader::u64(const char* name) {
  TG_ASSIGN_OR_RETURN(std::string_view bytes, field(name));
  if (bytes.size() != 8)
    return corrupt(std::string("field '") + name + "' is " + std::to_string(bytes.size()) + " bytes, not 8");
  return get_le(reinterpret_cast<const uint8_t*>(bytes.data()), 8);
}

Status ContainerReader::finish() const {
  if (at_ != body_.size()) return corrupt(std::to_string(body_.size() - at_) + " trailing bytes after the last field");
  return Status::ok();
}

}  // namespace tegula::plugin
