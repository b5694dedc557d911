/// \file
/// Opening a device: one compute queue, the device-level function table, and every feature
/// the generated shaders may declare (8/16-bit storage, Int8/Int16/Int64/Float64, float
/// atomics, subgroup size control, cooperative matrices) switched on where supported, and
/// VK_KHR_shader_float_controls on a Vulkan 1.1 device whose shaders declare them. The
/// core robustBufferAccess stays off: generated code bounds-checks its own accesses.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "plugins/vulkan/VkStruct.h"
#include "plugins/vulkan/VulkanPlugin.h"

namespace tegula::vulkan {
void free_device(tg_device* d) {
  if (d->device) {
    for (tg_queue* q : d->queues) {
      (void)drain(q);
      destroy_queue(q);
    }
    d->fn.vkDeviceWaitIdle(d->device);
    for (tg_executable* e : d->executables) destroy_executable(e);
    for (tg_buffer* b : d->buffers) {
      d->fn.vkDestroyBuffer(d->device, b->buffer, nullptr);
      d->fn.vkFreeMemory(d->device, b->memory, nullptr);
      delete b;
    }
    for (tg_event* e : d->events) {
      e->fence.reset();
      if (e->queries) d->fn.vkDestroyQueryPool(d->device, e->queries, nullptr);
      delete e;
    }
    d->fn.vkDestroyDevice(d->device, nullptr);
  }
  d->plugin->devices.erase(d);
  delete d;
}

tg_error* device_open(tg_plugin* plugin, uint32_t index, tg_device** out_device) {
  return guarded("device_open", [&]() -> tg_error* {
    if (!plugin || !out_device) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: device_open: NULL argument");
    if (index >= plugin->physical.size()) return make_error(TG_ERR_NOT_FOUND, "vulkan: no device " + std::to_string(index));
    const PhysicalDevice& p = plugin->physical[index];
    const InstanceFns& vk = plugin->vk;
    const DeviceCaps& c = p.caps;

    std::vector<const char*> exts;
    for (const char* e : {"VK_KHR_8bit_storage", "VK_KHR_16bit_storage", "VK_KHR_shader_float16_int8", "VK_KHR_storage_buffer_storage_class",
                          "VK_EXT_shader_atomic_float", "VK_KHR_shader_atomic_int64", "VK_EXT_subgroup_size_control", kCoopMatrixExtension,
                          "VK_KHR_vulkan_memory_model"})
      if (p.has_extension(e)) exts.push_back(e);
    if (p.pipeline_statistics) exts.push_back("VK_KHR_pipeline_executable_properties");
    if (p.needs_float_controls_extension) exts.push_back("VK_KHR_shader_float_controls");
    if (!c.coopmat_flexible.empty()) exts.push_back(kCoopMatrix2Extension);

    auto f16s = make_struct<VkPhysicalDevice16BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
    f16s.storageBuffer16BitAccess = c.storage16;
    auto f8s = make_struct<VkPhysicalDevice8BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES);
    f8s.storageBuffer8BitAccess = c.storage8;
    auto fi8 = make_struct<VkPhysicalDeviceShaderFloat16Int8Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES);
    fi8.shaderInt8 = c.int8;
    fi8.shaderFloat16 = c.float16;
    auto fat = make_struct<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
    fat.shaderBufferFloat32AtomicAdd = c.atomic_float32_add;
    fat.shaderBufferFloat64AtomicAdd = c.atomic_float64_add;
    auto fa64 = make_struct<VkPhysicalDeviceShaderAtomicInt64Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES);
    fa64.shaderBufferInt64Atomics = c.int64_atomics;
    auto fsc = make_struct<VkPhysicalDeviceSubgroupSizeControlFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
    fsc.subgroupSizeControl = c.subgroup_size_control;
    fsc.computeFullSubgroups = c.subgroup_size_control;
    auto fcm = make_struct<CoopMatrixFeaturesKHR>(kStypeCoopMatrixFeatures);
    fcm.cooperativeMatrix = VK_TRUE;
    auto fmm = make_struct<VkPhysicalDeviceVulkanMemoryModelFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES);
    fmm.vulkanMemoryModel = c.vulkan_memory_model;
    auto features = make_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    features.features.shaderInt16 = c.int16;
    features.features.shaderInt64 = c.int64;
    features.features.shaderFloat64 = c.float64;
    void** tail = &features.pNext;
    auto chain = [&](auto& s) {
      *tail = &s;
      tail = &s.pNext;
    };
    uint32_t api = p.caps.api_version;
    chain(f16s);
    if (api >= VK_API_VERSION_1_2 || p.has_extension("VK_KHR_8bit_storage")) chain(f8s);
    if (api >= VK_API_VERSION_1_2 || p.has_extension("VK_KHR_shader_float16_int8")) chain(fi8);
    if (p.has_extension("VK_EXT_shader_atomic_float")) chain(fat);
    if (api >= VK_API_VERSION_1_2 || p.has_extension("VK_KHR_shader_atomic_int64")) chain(fa64);
    if (c.subgroup_size_control) chain(fsc);
    if (!c.coopmat.empty()) chain(fcm);
    auto fcm2 = make_struct<CoopMatrix2FeaturesNV>(kStypeCoopMatrix2Features);
    fcm2.cooperativeMatrixWorkgroupScope = VK_TRUE;
    fcm2.cooperativeMatrixFlexibleDimensions = VK_TRUE;
    fcm2.cooperativeMatrixTensorAddressing = c.coopmat_tensor_addressing;
    if (!c.coopmat_flexible.empty()) chain(fcm2);
    if (c.vulkan_memory_model) chain(fmm);
    auto fpe = make_struct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
    fpe.pipelineExecutableInfo = VK_TRUE;
    if (p.pipeline_statistics) chain(fpe);

    float priority = 1.0f;
    auto qinfo = make_struct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    qinfo.queueFamilyIndex = p.queue_family;
    qinfo.queueCount = 1;
    qinfo.pQueuePriorities = &priority;
    auto dinfo = make_struct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    dinfo.pNext = &features;
    dinfo.queueCreateInfoCount = 1;
    dinfo.pQueueCreateInfos = &qinfo;
    dinfo.enabledExtensionCount = uint32_t(exts.size());
    dinfo.ppEnabledExtensionNames = exts.data();

    auto target = parse_target(p.target_json, p.target_name + " (vulkan device description)");
    if (!target.is_ok()) return from_status(target.status(), "device_open: the device's own description");

    auto* d = new tg_device;
    d->plugin = plugin;
    d->phys = &p;
    d->target = std::move(target).value();
    d->target_hash = target_hash(d->target);
    VkResult r = vk.vkCreateDevice(p.handle, &dinfo, nullptr, &d->device);
    if (r != VK_SUCCESS) {
      delete d;
      return vk_error(r, "vkCreateDevice");
    }
    plugin->devices.insert(d);
    bool complete = true;
    std::string missing;
#define TG_VK_LOAD_DEVICE(name)                                                        \
  d->fn.name = reinterpret_cast<PFN_##name>(vk.vkGetDeviceProcAddr(d->device, #name)); \
  if (!d->fn.name) {                                                                   \
    complete = false;                                                                  \
    missing = #name;                                                                   \
  }
    TG_VK_DEVICE_SYMBOLS(TG_VK_LOAD_DEVICE)
#undef TG_VK_LOAD_DEVICE
    if (!complete) {
      if (d->fn.vkDestroyDevice) d->fn.vkDestroyDevice(d->device, nullptr);
      d->device = VK_NULL_HANDLE;
      plugin->devices.erase(d);
      delete d;
      return make_error(TG_ERR_DEVICE, "vulkan: the driver has no " + missing);
    }
    d->fn.vkGetDeviceQueue(d->device, p.queue_family, 0, &d->queue);
    if (tg_error* e = choose_memory_types(d)) {
      free_device(d);
      return e;
    }
    if (p.pipeline_statistics) {
      d->get_executable_properties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
          vk.vkGetDeviceProcAddr(d->device, "vkGetPipelineExecutablePropertiesKHR"));
      d->get_executable_statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
          vk.vkGetDeviceProcAddr(d->device, "vkGetPipelineExecutableStatisticsKHR"));
    }
    VkPhysicalDeviceProperties props;
    vk.vkGetPhysicalDeviceProperties(p.handle, &props);
    d->max_storage_range = props.limits.maxStorageBufferRange;
    d->fault_stride = uint32_t(std::max<VkDeviceSize>(props.limits.minStorageBufferOffsetAlignment, 16));
    for (int i = 0; i < 3; ++i) d->max_group_count[i] = props.limits.maxComputeWorkGroupCount[i];
    *out_device = d;
    return nullptr;
  });
}

void device_close(tg_device* device) {
  guarded_void([&] {
    if (device) free_device(device);
  });
}

tg_error* queue_create(tg_device* device, tg_queue** out_queue) {
  return guarded("queue_create", [&]() -> tg_error* {
    if (!device || !out_queue) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: queue_create: NULL argument");
    auto info = make_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    info.queueFamilyIndex = device->phys->queue_family;
    auto* q = new tg_queue;
    q->device = device;
    VkResult r = device->fn.vkCreateCommandPool(device->device, &info, nullptr, &q->pool);
    if (r != VK_SUCCESS) {
      delete q;
      return vk_error(r, "vkCreateCommandPool");
    }
    device->queues.insert(q);
    *out_queue = q;
    return nullptr;
  });
}

void queue_destroy(tg_queue* queue) {
  guarded_void([&] {
    if (!queue) return;
    (void)drain(queue);
    queue->device->queues.erase(queue);
    destroy_queue(queue);
  });
}

tg_error* queue_synchronize(tg_queue* queue) {
  return guarded("queue_synchronize", [&]() -> tg_error* {
    if (!queue) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: queue_synchronize: NULL queue");
    if (tg_error* e = drain(queue)) return e;
    if (queue->fault.empty()) return nullptr;
    // An element access outside its tensor since the last synchronize (codegen/Generate.h).
    std::string fault = std::move(queue->fault);
    queue->fault.clear();
    return make_error(TG_ERR_INVALID_ARGUMENT, fault);
  });
}

}  // namespace tegula::vulkan
