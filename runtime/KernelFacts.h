/// \file
/// What the runtime keeps of a lowered kernel beside its executable: the launch header (name,
/// parameters, grid expressions, threads) and which parameters the kernel writes. A compile-
/// cache entry records them next to the executable, so a hit builds the kernel's signature
/// and launch checks from the entry, without parsing or lowering the IR again.
///
/// Cached payload (inside the entry, so the entry's digest and binding cover it):
///
///   bytes 0-7   length F of the facts text, little-endian
///   bytes 8-    the facts text (F bytes), then the plugin's executable bytes
///
/// Facts text, one line each:
///
///   facts 1
///   name <kernel>
///   threads <n>
///   param <name> tensor|scalar <dtype> <written 0|1> <rank> <dim>...   (dim: integer or symbol)
///   grid <count> <expr>...
///
/// An expression is written prefix, one token per node, each with its source position:
/// `i<value>@L:C`, `v<name>@L:C`, `b<binary op>@L:C <a> <b>`, `u<unary op>@L:C <a>` (the op
/// as its number in ir/OpList.h; the cache key holds the runtime's build, so a list that
/// changes never reads an older entry). Anything else is refused when decoding, as Corrupt.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"

namespace tegula::runtime {

struct KernelFacts {
  ir::Kernel header;          ///< the lowered kernel with an empty body
  std::vector<bool> written;  ///< per parameter: the kernel writes it
};

/// The facts of a lowered kernel.
KernelFacts kernel_facts(const ir::Kernel& lowered);

/// The facts as text, or an error for a header that has no encoding (an expression kind
/// other than a literal, a name, a unary or a binary operation).
Result<std::string> encode_kernel_facts(const KernelFacts& facts);
/// Back from text; locations get `file` (the request's source name). Corrupt on any damage.
Result<KernelFacts> decode_kernel_facts(std::string_view text, const std::string& file);

/// The payload a cache entry holds: the facts, then the executable.
Result<std::string> pack_cached_kernel(const KernelFacts& facts, const std::string& executable);
struct CachedKernel {
  KernelFacts facts;
  std::string executable;
};
/// (By value: the executable is what is left of the payload, with no second copy.)
Result<CachedKernel> unpack_cached_kernel(std::string payload, const std::string& file);

}  // namespace tegula::runtime
