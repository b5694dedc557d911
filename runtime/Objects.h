/// \file
/// What the public API's opaque handles are. Private to the runtime library.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"
#include "ir/Tunables.h"
#include "runtime/CompileCache.h"
#include "runtime/Discovery.h"
#include "runtime/Env.h"
#include "runtime/Log.h"
#include "plugins/support/LaunchCheck.h"
#include "runtime/Plugin.h"
#include "runtime/include/tegula/tegula.h"
#include "targets/Target.h"

struct tegula_error {
  tegula::Status status;
  /// What tegula_error_message returns: "file:line:column: message" when the status has a
  /// location (a compile error in the IR), else the message.
  std::string text;
};

struct tegula_device {
  tegula_runtime* runtime = nullptr;
  tegula::runtime::PluginInstance* plugin = nullptr;
  const tegula::runtime::DeviceInfo* info = nullptr;

  // The target description, resolved on first use.
  std::mutex target_mu;
  bool target_resolved = false;
  tegula::Status target_status;
  std::optional<tegula::TargetDescription> target;
  std::string target_hash;  ///< of `target`, for cache keys
};

struct tegula_buffer {
  tegula_device* device = nullptr;
  tg_buffer* handle = nullptr;
  uint64_t size = 0;
};

struct tegula_kernel {
  tegula_device* device = nullptr;
  /// The lowered kernel's header (no body: runtime/KernelFacts.h), from the lowering or from
  /// the cache entry: what launches are checked against.
  tegula::ir::Kernel kernel;
  /// What variants are lowered from: the IR text as given, and once a variant needs lowering
  /// (under variants_mu), that text verified. A kernel loaded from the cache parses it only then.
  std::string source_text;
  std::string source_name;
  std::optional<tegula::ir::Kernel> source;
  std::string plugin_options;
  bool use_cache = true;
  uint32_t raster_group = 0;
  /// One compiled executable: its bytes are kept for tegula_kernel_describe, and its
  /// readable form once asked for (under variants_mu, never changed after).
  struct Variant {
    tg_executable* executable = nullptr;
    std::string bytes;
    std::optional<std::string> description;
    /// Tunable kernels: the binding this variant was compiled with, how it was chosen
    /// ("given", "ranked", "measured"), and its launch signature (the grid and thread count
    /// depend on the binding); empty for other kernels, which use the kernel's.
    tegula::ir::Binding binding;
    std::string chosen_by;
    std::optional<tegula::ir::Kernel> header;  ///< what `signature` reads the grid from
    std::optional<tegula::plugin::LaunchSignature> signature;
    std::optional<std::string> description_binding;  ///< binding_text(binding), for the C API
    /// Compiled for one launch's exact shape values (the target's shape_specialization):
    /// its signature has no shape symbols, so launches pass it the parameters only.
    bool specialized = false;
  };
  /// The variant compiled up front: aligned tensors, nothing known about shapes.
  Variant generic;
  /// Variants specialised on what the launch guarantees: key = for each shape symbol the
  /// power of two (at most 16) dividing its value. Filled lazily at launch, never freed
  /// before the kernel (so pointers into the map stay valid).
  std::mutex variants_mu;
  std::map<std::vector<int64_t>, Variant> variants;
  /// The device's description has shape_specialization (set at compile, read-only after):
  /// launches run a variant compiled for their exact shapes (keyed {-1, alignment, values...}),
  /// up to kMaxShapeVariants shapes tried; a shape whose variant does not build (a zero
  /// extent, which a constant dimension may not be) is remembered, and runs the symbolic ones.
  bool specialize_shapes = false;
  /// compile_kernel lowered the generic variant but left its plugin compile to
  /// ensure_generic (a specialising device; cleared under variants_mu once compiled).
  std::atomic<bool> generic_deferred{false};
  size_t shape_variants = 0;  ///< shapes tried, built or not (under variants_mu)
  std::set<std::vector<int64_t>> shape_failures;  ///< under variants_mu
  /// The variant the most recent launch ran: one store per launch, read by describe.
  std::atomic<Variant*> launched{&generic};
  std::vector<std::string> arg_names;
  std::vector<tegula_arg_kind> arg_kinds;
  /// A kernel with tunables (ir/Tunables.h) whose binding was not given at compile time:
  /// each launch's shape class (runtime/Tune.h) gets its own variant, with the binding the
  /// compile cache recorded for the class (measured by tegula tune) or else the ranking's
  /// first. Empty for other kernels and for a compile that fixed the binding.
  std::optional<tegula::ir::TuneSpace> tune;
  /// Of `kernel`: what launch_kernel checks the arguments and grid against (validate_launch).
  tegula::plugin::LaunchSignature launch_signature;
  /// The rest of the signature, for tegula_kernel_get_arg_info (indexed like arg_names).
  struct ArgDetail {
    std::string dtype;              ///< "bf16"; "i64" for a shape symbol
    bool written = false;           ///< a tensor the kernel writes
    std::vector<int64_t> dims;      ///< extents, -1 where a shape symbol gives one
    std::vector<int64_t> dim_args;  ///< the argument index of that symbol, else -1
  };
  std::vector<ArgDetail> arg_details;
  tegula_cache_result cache = TEGULA_CACHE_DISABLED;
};

struct tegula_event {
  tegula_device* device = nullptr;
  tg_event* handle = nullptr;
};

struct tegula_runtime {
  tegula::runtime::Log log;
  std::vector<std::shared_ptr<tegula::runtime::PluginInstance>> plugins;  ///< sorted by name
  std::vector<std::unique_ptr<tegula_device>> devices;
  std::vector<tegula::runtime::Skipped> skipped;
  tegula::runtime::CompileCache cache;

  std::atomic<uint64_t> plugin_compiles{0};
  std::atomic<uint64_t> cache_hits{0};
  std::atomic<uint64_t> cache_misses{0};
  std::atomic<uint64_t> cache_rejected{0};
  std::atomic<uint64_t> ir_parses{0};     ///< IR texts parsed and verified to compile them
  std::atomic<uint64_t> ir_lowerings{0};  ///< ir::lower calls

  /// Objects still alive, freed by tegula_runtime_close.
  std::mutex objects_mu;
  std::set<tegula_buffer*> buffers;
  std::set<tegula_kernel*> kernels;
  std::set<tegula_event*> events;
};

namespace tegula::runtime {

/// Wrap a Status as a C error (nullptr for ok).
tegula_error* to_c_error(Status status);

}  // namespace tegula::runtime
