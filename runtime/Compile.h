/// \file
/// The compile path, from IR text to a loaded executable:
///
///   the device's target description (the plugin's own device_target JSON if it gives one,
///   else the built-in description its properties name) -> compile cache lookup, keyed by
///   the request (IR text, variant, runtime build, target, plugin, options) -> on a hit, the
///   kernel's facts (launch header, written tensors) and executable from the entry, and
///   plugin executable_load: nothing parsed or lowered. On a miss: parse + verify ->
///   ir::lower -> ir::print_kernel -> plugin compile -> cache store (facts and executable)
///   -> plugin executable_load.
///
/// A cache entry that fails its integrity check, whose facts do not decode, or that the
/// plugin's executable_load refuses with TG_ERR_CORRUPT, is deleted and compiled again.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.h"
#include "ir/Lower.h"
#include "runtime/Objects.h"

namespace tegula::runtime {

struct CompileRequest {
  std::string source_name = "<kernel>";
  std::string plugin_options;
  bool use_cache = true;
  uint32_t raster_group = 0;  ///< LowerOptions::raster_group, for every variant
  /// A tunable kernel's binding ("BM=128,BN=256"): compile that instance only. Empty: each
  /// launch's shape class gets its own choice (runtime/Tune.h).
  std::string tunables;
};

/// The lowering options of a kernel variant: what its launches guarantee about tensor
/// alignment and shape divisibility. The defaults describe the generic variant, the one
/// tegula_kernel_compile builds up front and tegula_plugin_compile_offline reproduces.
ir::LowerOptions variant_lower_options(const std::map<std::string, int64_t>& divisibility = {}, bool aligned = true,
                                       uint32_t raster_group = 0);

/// The device's target description, resolved once.
Result<const TargetDescription*> device_target(tegula_device* device);

Result<tegula_kernel*> compile_kernel(tegula_device* device, std::string_view ir_text, const CompileRequest& request);

/// Compile the symbolic variant if compile_kernel deferred it (a device that specialises
/// per shape); a no-op otherwise. Takes variants_mu: callers must not hold it.
Status ensure_generic(tegula_kernel* k);

/// The executable of `k` for a launch: specialised for `divisibility` (symbol -> power of
/// two dividing it) and for whether every tensor starts 16-byte aligned, compiled (through
/// the cache) on first use; the pointer stays valid until the kernel is freed. The generic
/// variant (compiled by compile_kernel) assumes aligned tensors and nothing about the
/// shapes: what most launches give.
Result<tegula_kernel::Variant*> kernel_variant(tegula_kernel* k, const std::map<std::string, int64_t>& divisibility,
                                               bool aligned, const std::vector<int64_t>& key);

/// A tunable kernel's variant for a launch's shape class (runtime/Tune.h): `key` is the
/// launch's variant key with the class's size buckets appended; compiled on first use with
/// the class's choice, its launch signature kept with it.
Result<tegula_kernel::Variant*> tunable_variant(tegula_kernel* k, const std::map<std::string, int64_t>& shape,
                                                const std::map<std::string, int64_t>& divisibility, bool aligned,
                                                const std::vector<int64_t>& key, const std::string& class_text);

/// The variant for one launch's exact shape values (`shape_values`, every shape symbol) with
/// `binding` for a tunable kernel; the caller holds variants_mu and has checked the key is
/// not in k->variants. Its signature has no shape symbols.
Result<tegula_kernel::Variant*> specialized_variant(tegula_kernel* k, const ir::Binding& shape_values, bool aligned,
                                                    const std::vector<int64_t>& key, const ir::Binding* binding,
                                                    const std::string& chosen_by);

}  // namespace tegula::runtime
