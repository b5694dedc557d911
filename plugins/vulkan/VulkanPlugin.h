/// \file
/// The Vulkan plugin's private declarations. Every physical device with a compute queue is
/// a device "vulkan:<n>"; its target description is built from what it reports
/// (DeviceTarget.h). Memory is device-local storage buffers reached through host-visible
/// staging buffers; a queue records commands into a command buffer and submits it in
/// batches (at synchronize, at an event, or every kBatchLaunches launches); every command
/// is followed by a full memory barrier, so work runs in order. Executables are SPIR-V
/// generated from the lowered IR (codegen/) behind a checked header (Blob.h).
///
/// No entry point lets a C++ exception or an abort reach the host: bodies run in guarded().
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/IR.h"
#include "plugins/abi/tegula_plugin.h"
#include "plugins/vulkan/CoopMatrix.h"
#include "plugins/vulkan/DeviceTarget.h"
#include "plugins/vulkan/VulkanSymbols.h"
#include "plugins/vulkan/codegen/Generate.h"
#include "targets/Target.h"
#include "plugins/support/EntryTable.h"
#include "plugins/support/LaunchCheck.h"
#include "plugins/support/PluginErrors.h"

namespace tegula::vulkan {

/// A physical device found at init.
struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  DeviceCaps caps;
  uint32_t queue_family = 0;
  uint32_t timestamp_valid_bits = 0;  ///< of the queue family's timestamps
  std::vector<std::string> extensions;
  std::string target_name;
  std::string target_json;
  std::string driver_text;
  /// VK_KHR_pipeline_executable_properties: the driver reports per-pipeline statistics
  /// (registers, memory), logged when an executable is loaded.
  bool pipeline_statistics = false;
  /// The description asks shaders for float controls (DenormPreserve, SignedZeroInfNan-
  /// Preserve) on a device older than Vulkan 1.2, where they come from
  /// VK_KHR_shader_float_controls: device_open must enable it.
  bool needs_float_controls_extension = false;
  bool has_extension(const char* name) const;
};

/// A fence that outlives the submission it ends (events keep it).
struct FenceRef {
  VkDevice device = VK_NULL_HANDLE;
  const DeviceFns* fn = nullptr;
  VkFence fence = VK_NULL_HANDLE;
  ~FenceRef();
};

/// A buffer the host reads or writes (staging).
struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
  uint64_t size = 0;
};

/// What an executable's fault numbers mean (codegen/Generate.h): its kernel's name and the
/// accesses as written, shared by the batches whose launches may report one.
struct FaultTable {
  std::string kernel;
  std::vector<std::string> sites;
};

/// One batch of recorded commands.
struct Submission {
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  std::shared_ptr<FenceRef> fence;
  std::vector<HostBuffer> staging;
  std::vector<VkDescriptorPool> pools;
  /// Host copies to run once the batch completed: (destination, staging index, bytes).
  struct Readback {
    void* dst;
    size_t staging;
    uint64_t size;
  };
  std::vector<Readback> readbacks;
  uint32_t launches = 0;
  uint32_t pool_sets_left = 0;
  /// The fault words of the batch's launches that bind one (codegen/Generate.h): a slot of
  /// tg_device::fault_stride bytes each, zeroed, read when the batch completes.
  HostBuffer fault;
  struct FaultLaunch {
    uint32_t slot;
    std::shared_ptr<const FaultTable> table;  ///< the executable's, outliving it if need be
  };
  std::vector<FaultLaunch> fault_launches;
};

inline constexpr uint32_t kBatchLaunches = 64;

/// The size of the VkBuffer behind `size` bytes: a multiple of 16, at least 16 (Vulkan has
/// no empty buffers). Descriptors bind it whole, and 8/16-bit atomics (a compare-and-swap on
/// the 32-bit word holding the element) then stay inside it for any logical size.
inline uint64_t vk_buffer_bytes(uint64_t size) { return size < 16 ? 16 : (size + 15) / 16 * 16; }

}  // namespace tegula::vulkan

struct tg_plugin {
  uint32_t abi_version = 0;
  void (*log)(void* log_user, tg_log_level level, const char* message) = nullptr;
  void* log_user = nullptr;
  void* library = nullptr;  ///< libvulkan.so.1, or null when absent
  tegula::vulkan::InstanceFns vk;
  tegula::vulkan::PFN_GetCoopMatrixProperties get_coopmat = nullptr;
  tegula::vulkan::PFN_GetCoopMatrixFlexibleProperties get_coopmat_flexible = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  std::vector<tegula::vulkan::PhysicalDevice> physical;
  std::set<tg_device*> devices;
  void note(tg_log_level level, const std::string& message) const;
};

struct tg_device {
  tg_plugin* plugin = nullptr;
  const tegula::vulkan::PhysicalDevice* phys = nullptr;
  VkDevice device = VK_NULL_HANDLE;
  tegula::vulkan::DeviceFns fn;
  VkQueue queue = VK_NULL_HANDLE;
  std::mutex submit_mu;  ///< one VkQueue serves every tg_queue
  uint32_t device_memory_type = 0;  ///< device-local, for tg_buffers
  uint32_t host_memory_type = 0;    ///< host-visible and coherent (cached if any), for staging
  VkDeviceSize max_storage_range = 0;
  /// Bytes between two launches' fault words in a batch's fault buffer: the device's
  /// minStorageBufferOffsetAlignment, at least 16.
  uint32_t fault_stride = 256;
  uint32_t max_group_count[3] = {0, 0, 0};
  tegula::TargetDescription target;
  std::string target_hash;  ///< target_hash(target), computed once: every executable load compares it
  /// Optional (VK_KHR_pipeline_executable_properties); null when the device lacks it.
  PFN_vkGetPipelineExecutablePropertiesKHR get_executable_properties = nullptr;
  PFN_vkGetPipelineExecutableStatisticsKHR get_executable_statistics = nullptr;
  std::set<tg_queue*> queues;
  std::set<tg_buffer*> buffers;
  std::mutex executables_mu;  ///< executable_load runs on several threads (TG_CONCURRENT_COMPILE)
  std::set<tg_executable*> executables;
  std::set<tg_event*> events;
};

struct tg_queue {
  tg_device* device = nullptr;
  VkCommandPool pool = VK_NULL_HANDLE;
  std::unique_ptr<tegula::vulkan::Submission> current;  ///< being recorded, or null
  std::deque<std::unique_ptr<tegula::vulkan::Submission>> in_flight;
  /// Zeroed fault buffers of retired batches, for the next ones.
  std::vector<tegula::vulkan::HostBuffer> fault_free;
  /// The first out-of-range access a completed batch reported, until queue_synchronize
  /// returns it (other drains, at buffer_free or executable_free, leave it here).
  std::string fault;
};

struct tg_buffer {
  tg_device* device = nullptr;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint64_t size = 0;
};

struct tg_executable {
  tg_device* device = nullptr;
  tegula::ir::Kernel kernel;
  tegula::vulkan::ShaderInterface iface;
  std::shared_ptr<const tegula::vulkan::FaultTable> faults;
  /// The launch values (grid, scalars, symbols) that last passed check_index_widths.
  std::mutex widths_mu;
  std::vector<uint64_t> widths_key;
  bool widths_checked = false;
  /// The launch signature of `kernel` with what it was lowered assuming (lower.assume,
  /// lower.tensor_align), checked at every launch: the generated code has no fallback.
  tegula::plugin::LaunchSignature signature;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

struct tg_event {
  tg_device* device = nullptr;
  VkQueryPool queries = VK_NULL_HANDLE;  ///< one timestamp, when the device has them
  std::shared_ptr<tegula::vulkan::FenceRef> fence;
  bool recorded = false;
};

namespace tegula::vulkan {

// --- errors (Errors.cpp) ------------------------------------------------------------------
// Error objects, the exception guard and range checks (plugins/support/PluginErrors.h).
using plugin::error_code;
using plugin::error_destroy;
using plugin::error_message;
using plugin::guarded_void;
using plugin::make_error;
using plugin::range_ok;
using plugin::status_code_for;
inline tg_error* from_status(const Status& status, const char* context) {
  return plugin::error_from_status("vulkan", status, context);
}
template <typename F>
tg_error* guarded(const char* entry, F&& body) {
  return plugin::guarded("vulkan", entry, std::forward<F>(body));
}

tg_error* vk_error(VkResult r, const char* what);
const char* vk_result_name(VkResult r);

// --- instance and devices (Instance.cpp, Device.cpp) -------------------------------------
/// Load the loader, create the instance and describe every compute-capable device. A
/// machine without a loader or devices ends with zero devices and no error.
void discover(tg_plugin* plugin);
void release_instance(tg_plugin* plugin);
void free_device(tg_device* device);

// --- memory and queues (Memory.cpp, Queue.cpp) --------------------------------------------
/// Set device_memory_type and host_memory_type (device_open, once).
tg_error* choose_memory_types(tg_device* d);
tg_error* create_host_buffer(tg_device* d, uint64_t size, HostBuffer& out);
void destroy_host_buffer(tg_device* d, HostBuffer& b);
/// The submission being recorded (begun on demand).
Result<Submission*> recording(tg_queue* q);
/// Submit what is being recorded; `out_fence` receives its fence.
tg_error* flush(tg_queue* q, std::shared_ptr<FenceRef>* out_fence = nullptr);
/// Wait for everything submitted and run the host copies; a fault a batch reported stays
/// in tg_queue::fault.
tg_error* drain(tg_queue* q);
/// The fault buffer slot of a launch being recorded into `s` (allocating the batch's buffer).
Result<uint32_t> fault_slot(tg_queue* q, Submission* s);
void destroy_queue(tg_queue* q);
/// A barrier after every command: later commands see its writes.
void full_barrier(tg_device* d, VkCommandBuffer cmd);

// --- executables (Executable.cpp, Launch.cpp) --------------------------------------------
void destroy_executable(tg_executable* e);

// Entry points, one per entry of the ABI list but the error entries (the SDK's); Api.cpp
// puts them behind guarded thunks in the table (plugins/support/EntryTable.h).
TG_SDK_DECLARE_ENTRIES()

}  // namespace tegula::vulkan
