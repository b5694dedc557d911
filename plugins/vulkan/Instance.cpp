/// \file
/// Identity, lifecycle and discovery: libvulkan.so.1 is dlopen'ed (TEGULA_VULKAN_LOADER
/// names another file, which tests use to simulate a machine without one), the instance is
/// created, and every physical device with a compute queue is described from its
/// properties, features and cooperative-matrix shapes. Anything missing ends discovery with
/// fewer (or zero) devices and a log line, never an error.
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "plugins/support/DeviceProperties.h"
#include "plugins/support/PluginInfo.h"
#include "plugins/vulkan/VkStruct.h"
#include "plugins/vulkan/VulkanPlugin.h"

#ifndef TEGULA_VERSION
#define TEGULA_VERSION "0.0.0"
#endif

void tg_plugin::note(tg_log_level level, const std::string& message) const {
  if (log) log(log_user, level, ("vulkan: " + message).c_str());
}

namespace tegula::vulkan {
namespace {

/// NVIDIA packs its driver version 10.8.8.6; others use the Vulkan encoding.
std::string driver_string(uint32_t vendor, uint32_t v) {
  if (vendor == 0x10DE)
    return std::to_string(v >> 22) + "." + std::to_string((v >> 14) & 0xff) + "." + std::to_string((v >> 6) & 0xff);
  return version_text(v);
}

/// What describe() asks the driver: the feature and property structures, chained as the
/// device's version and extensions allow, and which of them were chained (has_*).
struct Queried {
  VkPhysicalDevice16BitStorageFeatures f16s =
      make_struct<VkPhysicalDevice16BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  VkPhysicalDevice8BitStorageFeatures f8s =
      make_struct<VkPhysicalDevice8BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES);
  VkPhysicalDeviceShaderFloat16Int8Features fi8 =
      make_struct<VkPhysicalDeviceShaderFloat16Int8Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES);
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT fat =
      make_struct<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
  VkPhysicalDeviceShaderAtomicInt64Features fa64 =
      make_struct<VkPhysicalDeviceShaderAtomicInt64Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES);
  VkPhysicalDeviceSubgroupSizeControlFeatures fsc =
      make_struct<VkPhysicalDeviceSubgroupSizeControlFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
  CoopMatrixFeaturesKHR fcm = make_struct<CoopMatrixFeaturesKHR>(kStypeCoopMatrixFeatures);
  VkPhysicalDeviceVulkanMemoryModelFeatures fmm =
      make_struct<VkPhysicalDeviceVulkanMemoryModelFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES);
  VkPhysicalDeviceFeatures2 features =
      make_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  CoopMatrix2FeaturesNV fcm2 = make_struct<CoopMatrix2FeaturesNV>(kStypeCoopMatrix2Features);
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR fpe =
      make_struct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  VkPhysicalDeviceSubgroupProperties sub =
      make_struct<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  VkPhysicalDeviceSubgroupSizeControlProperties scp =
      make_struct<VkPhysicalDeviceSubgroupSizeControlProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
  VkPhysicalDeviceFloatControlsProperties fcp =
      make_struct<VkPhysicalDeviceFloatControlsProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES);
  VkPhysicalDeviceProperties2 props2 =
      make_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  CoopMatrix2PropertiesNV cm2p = make_struct<CoopMatrix2PropertiesNV>(kStypeCoopMatrix2Properties);
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV smp =
      make_struct<VkPhysicalDeviceShaderSMBuiltinsPropertiesNV>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV);
  VkPhysicalDeviceShaderCorePropertiesAMD amdp =
      make_struct<VkPhysicalDeviceShaderCorePropertiesAMD>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD);
  VkPhysicalDeviceShaderCoreProperties2AMD amdp2 =
      make_struct<VkPhysicalDeviceShaderCoreProperties2AMD>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_2_AMD);
  VkPhysicalDeviceMemoryProperties mem{};
  bool has8 = false, hasf16i8 = false, has_atomic_float = false, has_atomic64 = false, has_size_control = false,
      has_coopmat = false, has_coopmat2 = false, has_mm = false, has_pe = false, has_float_controls = false,
      has_sm_builtins = false, has_amd_cores = false, has_amd_cores2 = false;
};

/// The device's feature structures.
void query_features(const tg_plugin* plugin, VkPhysicalDevice handle, const PhysicalDevice& p, bool v12, bool v13, Queried& q) {
  const InstanceFns& vk = plugin->vk;
  void** tail = &q.features.pNext;
  auto chain = [&](auto& s) {
    *tail = &s;
    tail = &s.pNext;
  };
  chain(q.f16s);
  q.has8 = v12 || p.has_extension("VK_KHR_8bit_storage");
  q.hasf16i8 = v12 || p.has_extension("VK_KHR_shader_float16_int8");
  q.has_atomic_float = p.has_extension("VK_EXT_shader_atomic_float");
  q.has_atomic64 = v12 || p.has_extension("VK_KHR_shader_atomic_int64");
  q.has_size_control = v13 || p.has_extension("VK_EXT_subgroup_size_control");
  q.has_coopmat = p.has_extension(kCoopMatrixExtension) && plugin->get_coopmat;
  if (q.has8) chain(q.f8s);
  if (q.hasf16i8) chain(q.fi8);
  if (q.has_atomic_float) chain(q.fat);
  if (q.has_atomic64) chain(q.fa64);
  if (q.has_size_control) chain(q.fsc);
  if (q.has_coopmat) chain(q.fcm);
  q.has_coopmat2 = q.has_coopmat && v13 && p.has_extension(kCoopMatrix2Extension) && plugin->get_coopmat_flexible;
  if (q.has_coopmat2) chain(q.fcm2);
  q.has_mm = v12 || p.has_extension("VK_KHR_vulkan_memory_model");
  if (q.has_mm) chain(q.fmm);
  q.has_pe = p.has_extension("VK_KHR_pipeline_executable_properties");
  if (q.has_pe) chain(q.fpe);
  vk.vkGetPhysicalDeviceFeatures2(handle, &q.features);
}

/// The device's property structures (subgroups, float controls, workgroup matrices) and memory.
void query_properties(const InstanceFns& vk, VkPhysicalDevice handle, const PhysicalDevice& p, bool v12, Queried& q) {
  void** ptail = &q.props2.pNext;
  auto pchain = [&](auto& s) {
    *ptail = &s;
    ptail = &s.pNext;
  };
  pchain(q.sub);
  if (q.has_size_control) pchain(q.scp);
  q.has_float_controls = v12 || p.has_extension("VK_KHR_shader_float_controls");
  if (q.has_float_controls) pchain(q.fcp);
  if (q.has_coopmat2) pchain(q.cm2p);
  // The compute units, which core Vulkan does not report (the ranking's waves and occupancy).
  q.has_sm_builtins = p.has_extension("VK_NV_shader_sm_builtins");
  if (q.has_sm_builtins) pchain(q.smp);
  q.has_amd_cores = p.has_extension("VK_AMD_shader_core_properties");
  if (q.has_amd_cores) pchain(q.amdp);
  q.has_amd_cores2 = p.has_extension("VK_AMD_shader_core_properties2");
  if (q.has_amd_cores2) pchain(q.amdp2);
  vk.vkGetPhysicalDeviceProperties2(handle, &q.props2);
  vk.vkGetPhysicalDeviceMemoryProperties(handle, &q.mem);
}

/// The capabilities the description and code generation read, from what the driver reported.
void fill_caps(const std::string& name, const VkPhysicalDeviceProperties& props, const VkQueueFamilyProperties& family,
               const Queried& q, bool v12, PhysicalDevice& p) {
  DeviceCaps& c = p.caps;
  c.name = name;
  c.vendor_id = props.vendorID;
  c.device_id = props.deviceID;
  c.api_version = props.apiVersion;
  c.driver_version = props.driverVersion;
  c.device_type = uint32_t(props.deviceType);
  for (uint32_t i = 0; i < q.mem.memoryHeapCount; ++i)
    if (q.mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) c.memory_bytes += q.mem.memoryHeaps[i].size;
  c.subgroup_size = q.sub.subgroupSize;
  uint32_t want_ops = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
  c.subgroup_shuffle = (q.sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) && (q.sub.supportedOperations & want_ops) == want_ops &&
                       q.sub.subgroupSize >= 1 && (q.sub.subgroupSize & (q.sub.subgroupSize - 1)) == 0;
  c.max_workgroup_invocations = props.limits.maxComputeWorkGroupInvocations;
  c.max_workgroup_size_x = props.limits.maxComputeWorkGroupSize[0];
  c.max_shared_memory = props.limits.maxComputeSharedMemorySize;
  c.max_push_constants = props.limits.maxPushConstantsSize;
  c.storage16 = q.f16s.storageBuffer16BitAccess;
  c.int16 = q.features.features.shaderInt16;
  c.storage8 = q.has8 && q.f8s.storageBuffer8BitAccess;
  c.int8 = q.hasf16i8 && q.fi8.shaderInt8;
  c.float16 = q.hasf16i8 && q.fi8.shaderFloat16;
  c.vulkan_memory_model = q.has_mm && q.fmm.vulkanMemoryModel;
  c.float64 = q.features.features.shaderFloat64;
  c.int64 = q.features.features.shaderInt64;
  c.atomic_float32_add = q.has_atomic_float && q.fat.shaderBufferFloat32AtomicAdd;
  c.atomic_float64_add = q.has_atomic_float && q.fat.shaderBufferFloat64AtomicAdd;
  c.int64_atomics = q.has_atomic64 && q.fa64.shaderBufferInt64Atomics;
  c.subgroup_size_control = q.has_size_control && q.fsc.subgroupSizeControl && q.fsc.computeFullSubgroups;
  c.subgroup_size_control = c.subgroup_size_control && (q.scp.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  if (q.has_size_control) {
    c.min_subgroup_size = q.scp.minSubgroupSize;
    c.max_subgroup_size = q.scp.maxSubgroupSize;
  }
  if (q.has_float_controls) {
    c.denorm_preserve16 = q.fcp.shaderDenormPreserveFloat16;
    c.denorm_preserve32 = q.fcp.shaderDenormPreserveFloat32;
    c.denorm_preserve64 = q.fcp.shaderDenormPreserveFloat64;
    c.denorm_independence = uint32_t(q.fcp.denormBehaviorIndependence);
    c.signed_zero_preserve16 = q.fcp.shaderSignedZeroInfNanPreserveFloat16;
    c.signed_zero_preserve32 = q.fcp.shaderSignedZeroInfNanPreserveFloat32;
    c.signed_zero_preserve64 = q.fcp.shaderSignedZeroInfNanPreserveFloat64;
  }
  // Shaders declare float controls whenever a width is offered (DeviceTarget.cpp); before
  // Vulkan 1.2 they are legal only with the extension enabled (device_open).
  bool float_controls_used = c.denorm_preserve16 || c.denorm_preserve32 || c.denorm_preserve64 || c.signed_zero_preserve16 ||
                             c.signed_zero_preserve32 || c.signed_zero_preserve64;
  p.needs_float_controls_extension = !v12 && float_controls_used;
  if (q.has_sm_builtins) c.compute_units = q.smp.shaderSMCount;
  if (q.has_amd_cores && !c.compute_units)
    c.compute_units = q.amdp.shaderEngineCount * q.amdp.shaderArraysPerEngineCount * q.amdp.computeUnitsPerShaderArray;
  if (q.has_amd_cores2 && q.amdp2.activeComputeUnitCount) c.compute_units = q.amdp2.activeComputeUnitCount;  // harvested parts
  c.timestamps = family.timestampValidBits > 0 && props.limits.timestampPeriod > 0;
  c.timestamp_period = props.limits.timestampPeriod;
}

/// The cooperative-matrix shapes the device lists: subgroup scope, and workgroup scope where
/// VK_NV_cooperative_matrix2 offers it.
void query_matrices(const tg_plugin* plugin, VkPhysicalDevice handle, const Queried& q, DeviceCaps& c) {
  if (q.has_coopmat && q.fcm.cooperativeMatrix) {
    uint32_t n = 0;
    if (plugin->get_coopmat(handle, &n, nullptr) == VK_SUCCESS && n) {
      std::vector<CoopMatrixPropertiesKHR> list(n);
      for (auto& e : list) e = make_struct<CoopMatrixPropertiesKHR>(kStypeCoopMatrixProperties);
      if (plugin->get_coopmat(handle, &n, list.data()) == VK_SUCCESS) {
        for (uint32_t i = 0; i < n; ++i) {
          const auto& e = list[i];
          c.coopmat.push_back({e.MSize, e.NSize, e.KSize, e.AType, e.BType, e.CType, e.ResultType, e.saturatingAccumulation != 0, e.scope});
        }
      }
    }
  }
  // Workgroup-scope matrices are SPIR-V 1.6 (Vulkan 1.3) and need both features.
  if (q.has_coopmat2 && !c.coopmat.empty() && q.fcm2.cooperativeMatrixWorkgroupScope && q.fcm2.cooperativeMatrixFlexibleDimensions) {
    uint32_t n = 0;
    if (plugin->get_coopmat_flexible(handle, &n, nullptr) == VK_SUCCESS && n) {
      std::vector<CoopMatrixFlexiblePropertiesNV> list(n);
      for (auto& e : list) e = make_struct<CoopMatrixFlexiblePropertiesNV>(kStypeCoopMatrixFlexibleProperties);
      if (plugin->get_coopmat_flexible(handle, &n, list.data()) == VK_SUCCESS) {
        for (uint32_t i = 0; i < n; ++i) {
          const auto& e = list[i];
          c.coopmat_flexible.push_back({e.MGranularity, e.NGranularity, e.KGranularity, e.AType, e.BType, e.CType, e.ResultType,
                                        e.saturatingAccumulation != 0, e.scope, e.workgroupInvocations});
        }
      }
    }
    c.coopmat_tensor_addressing = q.fcm2.cooperativeMatrixTensorAddressing;
    c.coopmat_flexible_max = q.cm2p.cooperativeMatrixFlexibleDimensionsMaxDimension;
    c.coopmat_workgroup_max_size = q.cm2p.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
    c.coopmat_workgroup_reserved_shared = q.cm2p.cooperativeMatrixWorkgroupScopeReservedSharedMemory;
  }
}

void describe(tg_plugin* plugin, VkPhysicalDevice handle, uint32_t instance_api) {
  const InstanceFns& vk = plugin->vk;
  VkPhysicalDeviceProperties props;
  vk.vkGetPhysicalDeviceProperties(handle, &props);
  std::string name = props.deviceName;
  uint32_t api = std::min(instance_api, props.apiVersion);
  if (api < VK_API_VERSION_1_1) {
    plugin->note(TG_LOG_INFO, "skipping '" + name + "': Vulkan " + version_text(props.apiVersion) + " (1.1 is needed)");
    return;
  }
  uint32_t nq = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(handle, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> families(nq);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(handle, &nq, families.data());
  // A compute queue; one with graphics too is fine (often the only one with timestamps).
  int family = -1;
  for (uint32_t i = 0; i < nq; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      if (family < 0 || (families[i].timestampValidBits && !families[size_t(family)].timestampValidBits)) family = int(i);
    }
  if (family < 0) {
    plugin->note(TG_LOG_INFO, "skipping '" + name + "': no compute queue");
    return;
  }

  PhysicalDevice p;
  p.handle = handle;
  p.queue_family = uint32_t(family);
  p.timestamp_valid_bits = families[size_t(family)].timestampValidBits;
  uint32_t ne = 0;
  std::vector<VkExtensionProperties> exts;
  VkResult er = vk.vkEnumerateDeviceExtensionProperties(handle, nullptr, &ne, nullptr);
  if (er == VK_SUCCESS) {
    exts.resize(ne);
    er = vk.vkEnumerateDeviceExtensionProperties(handle, nullptr, &ne, exts.data());
  }
  if (er != VK_SUCCESS && er != VK_INCOMPLETE) {  // VK_INCOMPLETE: the first ne are still valid
    plugin->note(TG_LOG_WARN, "skipping '" + name + "': vkEnumerateDeviceExtensionProperties failed (" + vk_result_name(er) + ")");
    return;
  }
  exts.resize(ne);
  for (const VkExtensionProperties& e : exts) p.extensions.push_back(e.extensionName);
  bool v12 = api >= VK_API_VERSION_1_2, v13 = api >= VK_API_VERSION_1_3;

  Queried q;
  query_features(plugin, handle, p, v12, v13, q);
  query_properties(vk, handle, p, v12, q);
  fill_caps(name, props, families[size_t(family)], q, v12, p);
  query_matrices(plugin, handle, q, p.caps);
  const DeviceCaps& c = p.caps;
  p.pipeline_statistics = q.has_pe && q.fpe.pipelineExecutableInfo;
  p.driver_text = driver_string(c.vendor_id, c.driver_version);
  p.target_name = device_target_name(c);
  p.target_json = device_target_json(c);
  plugin->note(TG_LOG_INFO, "device '" + name + "': target " + p.target_name + ", subgroup " + std::to_string(c.subgroup_size) + ", " +
                                std::to_string(c.coopmat.size()) + " cooperative-matrix shapes");
  plugin->physical.push_back(std::move(p));
}

}  // namespace

bool PhysicalDevice::has_extension(const char* name) const {
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

void discover(tg_plugin* plugin) {
  const char* path = std::getenv("TEGULA_VULKAN_LOADER");
  if (!path || !*path) path = "libvulkan.so.1";
  plugin->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!plugin->library) {
    const char* why = dlerror();
    plugin->note(TG_LOG_INFO, std::string("no Vulkan loader (") + (why ? why : path) + "): no devices");
    return;
  }
  auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(plugin->library, "vkGetInstanceProcAddr"));
  if (!gipa) {
    plugin->note(TG_LOG_WARN, std::string(path) + " has no vkGetInstanceProcAddr: no devices");
    return;
  }
  InstanceFns& vk = plugin->vk;
#define TG_VK_LOAD_GLOBAL(name) vk.name = reinterpret_cast<PFN_##name>(gipa(VK_NULL_HANDLE, #name));
  TG_VK_GLOBAL_SYMBOLS(TG_VK_LOAD_GLOBAL)
#undef TG_VK_LOAD_GLOBAL
  if (!vk.vkCreateInstance) {
    plugin->note(TG_LOG_WARN, "the Vulkan loader has no vkCreateInstance: no devices");
    return;
  }
  uint32_t version = VK_API_VERSION_1_0;
  if (vk.vkEnumerateInstanceVersion) vk.vkEnumerateInstanceVersion(&version);
  uint32_t api = std::min<uint32_t>(version, VK_API_VERSION_1_3);
  VkApplicationInfo app;
  std::memset(&app, 0, sizeof(app));
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "tegula";
  app.pEngineName = "tegula";
  app.apiVersion = api;
  VkInstanceCreateInfo info;
  std::memset(&info, 0, sizeof(info));
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  VkResult r = vk.vkCreateInstance(&info, nullptr, &plugin->instance);
  if (r != VK_SUCCESS) {
    plugin->instance = VK_NULL_HANDLE;
    plugin->note(TG_LOG_INFO, std::string("vkCreateInstance failed (") + vk_result_name(r) + "): no devices");
    return;
  }
  bool complete = true;
#define TG_VK_LOAD_INSTANCE(name)                                                     \
  vk.name = reinterpret_cast<PFN_##name>(gipa(plugin->instance, #name));              \
  if (!vk.name) {                                                                      \
    plugin->note(TG_LOG_WARN, "the Vulkan loader has no " #name ": no devices");      \
    complete = false;                                                                  \
  }
  TG_VK_INSTANCE_SYMBOLS(TG_VK_LOAD_INSTANCE)
#undef TG_VK_LOAD_INSTANCE
  if (!complete) {
    release_instance(plugin);
    return;
  }
  plugin->get_coopmat =
      reinterpret_cast<PFN_GetCoopMatrixProperties>(gipa(plugin->instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
  plugin->get_coopmat_flexible = reinterpret_cast<PFN_GetCoopMatrixFlexibleProperties>(
      gipa(plugin->instance, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV"));
  uint32_t n = 0;
  if (vk.vkEnumeratePhysicalDevices(plugin->instance, &n, nullptr) != VK_SUCCESS || n == 0) {
    plugin->note(TG_LOG_INFO, "no Vulkan physical devices");
    return;
  }
  std::vector<VkPhysicalDevice> handles(n);
  if (vk.vkEnumeratePhysicalDevices(plugin->instance, &n, handles.data()) != VK_SUCCESS) return;
  for (VkPhysicalDevice h : handles) describe(plugin, h, api);
}

void release_instance(tg_plugin* plugin) {
  if (plugin->instance && plugin->vk.vkDestroyInstance) plugin->vk.vkDestroyInstance(plugin->instance, nullptr);
  plugin->instance = VK_NULL_HANDLE;
  plugin->physical.clear();
  // The loader stays loaded: drivers may keep threads or atexit handlers in it.
}

tg_error* get_info(tg_plugin_info* out_info) {
  if (!out_info || !plugin::plugin_info_fits(out_info))
    return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: get_info: bad tg_plugin_info");
  plugin::answer_plugin_info_size(out_info);
  out_info->next = nullptr;
  out_info->name = "vulkan";
  out_info->vendor = "tegula";
  // Part of compile-cache keys: bump the suffix whenever generated code changes.
  out_info->version = TEGULA_VERSION "-spirv.1";
  out_info->description = "Vulkan compute: SPIR-V generated from the lowered tile IR, libvulkan.so.1 loaded at run time";
  // SPIR-V generation keeps no state between compiles; the driver's pipeline compiler
  // (executable_load) is thread-safe per VkDevice; the executable list has its own mutex.
  plugin::set_concurrency(out_info, TG_CONCURRENT_COMPILE);
  return nullptr;
}

tg_error* init(const tg_host_info* host, tg_plugin** out_plugin) {
  return guarded("init", [&]() -> tg_error* {
    if (!host || !out_plugin) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: init: NULL argument");
    auto* plugin = new tg_plugin;
    plugin->abi_version = host->abi_version;
    if (host->struct_size >= sizeof(tg_host_info)) {
      plugin->log = host->log;
      plugin->log_user = host->log_user;
    }
    discover(plugin);
    *out_plugin = plugin;
    return nullptr;
  });
}

void shutdown(tg_plugin* plugin) {
  guarded_void([&] {
    if (!plugin) return;
    for (tg_device* d : std::vector<tg_device*>(plugin->devices.begin(), plugin->devices.end())) free_device(d);
    plugin->devices.clear();
    release_instance(plugin);
    delete plugin;
  });
}

tg_error* device_count(tg_plugin* plugin, uint32_t* out_count) {
  if (!plugin || !out_count) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: device_count: NULL argument");
  *out_count = uint32_t(plugin->physical.size());
  return nullptr;
}

static const char* vendor_name(uint32_t id) {
  switch (id) {
    case 0x10DE: return "NVIDIA";
    case 0x1002: return "AMD";
    case 0x8086: return "Intel";
    case 0x13B5: return "ARM";
    case 0x5143: return "Qualcomm";
    case 0x10005: return "Mesa";
    default: return "unknown";
  }
}

tg_error* device_properties(tg_plugin* plugin, uint32_t index, tg_device_properties* out) {
  if (!plugin || !plugin::device_properties_fit(out))
    return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: device_properties: bad argument");
  if (index >= plugin->physical.size())
    return make_error(TG_ERR_NOT_FOUND, "vulkan: no device " + std::to_string(index) + " (there are " +
                                            std::to_string(plugin->physical.size()) + ")");
  const PhysicalDevice& p = plugin->physical[index];
  plugin::answer_device_properties_size(out);
  out->next = nullptr;
  out->name = p.caps.name.c_str();
  out->vendor = vendor_name(p.caps.vendor_id);
  out->target = p.target_name.c_str();
  out->driver_version = p.driver_text.c_str();
  out->toolkit_version = "";
  out->memory_bytes = p.caps.memory_bytes;
  out->compute_units = 0;
  switch (VkPhysicalDeviceType(p.caps.device_type)) {
    case VK_PHYSICAL_DEVICE_TYPE_CPU: out->device_type = TG_DEVICE_TYPE_CPU; break;  // lavapipe, SwiftShader
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: out->device_type = TG_DEVICE_TYPE_GPU; break;
    default: out->device_type = TG_DEVICE_TYPE_UNKNOWN; break;
  }
  // Generated code tests every element index against its tensor (codegen/Access.cpp): an
  // element access outside is not made and writes the launch's fault word, which
  // queue_synchronize reports (codegen/Generate.h).
  plugin::set_out_of_range(out, TG_OUT_OF_RANGE_DETECTED);
  return nullptr;
}

tg_error* device_target(tg_plugin* plugin, uint32_t index, tg_target_description* out) {
  if (!plugin || !out || out->struct_size < sizeof(tg_target_description))
    return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: device_target: bad argument");
  if (index >= plugin->physical.size()) return make_error(TG_ERR_NOT_FOUND, "vulkan: no device " + std::to_string(index));
  const PhysicalDevice& p = plugin->physical[index];
  out->struct_size = sizeof(tg_target_description);
  out->next = nullptr;
  out->format = TG_TARGET_FORMAT_JSON_V1;
  out->data = p.target_json.c_str();
  out->size = p.target_json.size();
  return nullptr;
}

}  // namespace tegula::vulkan
