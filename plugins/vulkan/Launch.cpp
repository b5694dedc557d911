/// \file
/// Launching: the arguments are checked by the SDK's validate_launch (kinds, buffers of this
/// device, the grid the kernel's grid expressions give, tensors large enough, the lowering's
/// assumptions: symbol divisibility, tensor alignment) and against this backend's own limits
/// (32-bit element indices, loops counted and indices computed in i32: check_index_widths),
/// packed into push constants per the executable's interface, and a descriptor set from the
/// batch's pool binds one storage buffer per tensor (and the launch's fault word,
/// codegen/Generate.h, where the kernel accesses tensor elements; the queue reports what it
/// records). A grid larger than the device's group counts runs as several dispatches
/// (dispatch_grid).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "plugins/support/LaunchCheck.h"
#include "plugins/support/IntegerWidths.h"
#include "plugins/vulkan/VulkanPlugin.h"

namespace tegula::vulkan {
namespace {

constexpr uint32_t kSetsPerPool = 64;

Result<VkDescriptorSet> allocate_set(tg_device* d, Submission* s, tg_executable* e) {
  uint32_t descriptors = std::max<uint32_t>(uint32_t(e->iface.bindings.size()) + (e->iface.fault_word ? 1 : 0), 1);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!s->pools.empty() && s->pool_sets_left > 0) {
      VkDescriptorSetAllocateInfo info;
      std::memset(&info, 0, sizeof(info));
      info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
      info.descriptorPool = s->pools.back();
      info.descriptorSetCount = 1;
      info.pSetLayouts = &e->set_layout;
      VkDescriptorSet set;
      VkResult r = d->fn.vkAllocateDescriptorSets(d->device, &info, &set);
      if (r == VK_SUCCESS) {
        --s->pool_sets_left;
        return set;
      }
      if (r != VK_ERROR_OUT_OF_POOL_MEMORY && r != VK_ERROR_FRAGMENTED_POOL)
        return error(ErrorCode::Device, std::string("vkAllocateDescriptorSets failed: ") + vk_result_name(r));
    }
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max<uint32_t>(kSetsPerPool * 8, descriptors * 4)};
    VkDescriptorPoolCreateInfo info;
    std::memset(&info, 0, sizeof(info));
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    info.maxSets = kSetsPerPool;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    VkDescriptorPool pool;
    VkResult r = d->fn.vkCreateDescriptorPool(d->device, &info, nullptr, &pool);
    if (r != VK_SUCCESS) return error(ErrorCode::Device, std::string("vkCreateDescriptorPool failed: ") + vk_result_name(r));
    s->pools.push_back(pool);
    s->pool_sets_left = kSetsPerPool;
  }
  return error(ErrorCode::Device, "could not allocate a descriptor set");
}

/// A buffer of this device, for validate_launch. Its address for alignment is 0: a VkBuffer
/// starts at the start of its own allocation, so a tensor is aligned as its offset is.
plugin::LaunchBuffer buffer_of(const void* device, size_t, const tg_buffer* buffer) {
  const tg_device* d = static_cast<const tg_device*>(device);
  if (!d->buffers.count(const_cast<tg_buffer*>(buffer))) return {};
  return {true, buffer->size, 0};
}

/// What this backend needs beyond validate_launch, none of which a target description can
/// express: the generated code indexes elements in 32 bits (push constants carry a tensor's
/// offset in elements, symbols are i32).
tg_error* check_vulkan_limits(const ir::Kernel& k, const plugin::LaunchSignature& signature,
                              const tg_launch_params* params) {
  for (size_t i = 0; i < params->arg_count; ++i) {
    const tg_launch_arg& a = params->args[i];
    std::string where = "vulkan: launch: argument " + std::to_string(i);
    if (i >= k.params.size() && a.i64 > INT32_MAX)
      return make_error(TG_ERR_INVALID_ARGUMENT, where + ": a shape symbol must be an integer in [0, 2^31)");
    if (i >= k.params.size() || !k.params[i].is_tensor) continue;
    uint64_t esize = dtype_size(k.params[i].dtype);
    if (a.offset % esize) return make_error(TG_ERR_INVALID_ARGUMENT, where + ": offset is not a multiple of the element size");
  }
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (!k.params[i].is_tensor) continue;
    uint64_t need = plugin::checked_tensor_bytes(signature.params[i], *params);
    if ((params->args[i].offset + need) / dtype_size(k.params[i].dtype) > uint64_t(INT32_MAX))
      return make_error(TG_ERR_UNSUPPORTED, "vulkan: launch: tensor '" + k.params[i].name + "' reaches past element 2^31");
  }
  return nullptr;
}

/// check_index_widths for this launch, remembered for the executable's last launch values
/// (the scalars, symbols and grid it depends on): a loop of launches of one shape checks once.
tg_error* check_widths(tg_executable* e, const tg_launch_params& params, const std::array<uint32_t, 3>& grid) {
  // The key is rebuilt in this thread's buffer: no allocation on a launch after the first.
  thread_local std::vector<uint64_t> key;
  key.assign(grid.begin(), grid.end());
  for (size_t i = 0; i < params.arg_count; ++i) {
    const tg_launch_arg& a = params.args[i];
    if (i < e->kernel.params.size() && e->kernel.params[i].is_tensor) continue;
    uint64_t bits;
    if (a.kind == TG_ARG_I64) std::memcpy(&bits, &a.i64, 8);
    else std::memcpy(&bits, &a.f64, 8);
    key.push_back(bits);
    key.push_back(a.kind);
  }
  {
    std::lock_guard<std::mutex> lock(e->widths_mu);
    if (e->widths_checked && e->widths_key == key) return nullptr;
  }
  Status widths = plugin::check_index_widths(e->kernel, params, grid, 32);
  if (!widths.is_ok()) return plugin::launch_error("vulkan", widths);
  std::lock_guard<std::mutex> lock(e->widths_mu);
  e->widths_key = key;
  e->widths_checked = true;
  return nullptr;
}

/// Records the launch's grid as one dispatch per piece of at most the device's group counts
/// (maxComputeWorkGroupCount) along each dimension, each told through the push constants
/// where its blocks start; the blocks of a launch are independent, so no barrier separates
/// the pieces. `push` holds the launch's other push constants.
void dispatch_grid(const tg_device* d, VkCommandBuffer cmd, const tg_executable* e, std::vector<uint8_t>& push,
                   const std::array<uint32_t, 3>& grid) {
  const ShaderInterface& iface = e->iface;
  for (const PushEntry& p : iface.push)
    if (p.kind == PushGridCount) std::memcpy(&push[p.offset], &grid[p.arg], 4);
  std::array<uint32_t, 3> step;
  for (size_t dim = 0; dim < 3; ++dim) step[dim] = std::max<uint32_t>(d->max_group_count[dim], 1);
  std::array<uint32_t, 3> base = {0, 0, 0};
  for (base[2] = 0; base[2] < grid[2]; base[2] += std::min(step[2], grid[2] - base[2]))
    for (base[1] = 0; base[1] < grid[1]; base[1] += std::min(step[1], grid[1] - base[1]))
      for (base[0] = 0; base[0] < grid[0]; base[0] += std::min(step[0], grid[0] - base[0])) {
        for (const PushEntry& p : iface.push)
          if (p.kind == PushBlockBase) std::memcpy(&push[p.offset], &base[p.arg], 4);
        if (!push.empty()) d->fn.vkCmdPushConstants(cmd, e->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(push.size()), push.data());
        d->fn.vkCmdDispatch(cmd, std::min(step[0], grid[0] - base[0]), std::min(step[1], grid[1] - base[1]),
                            std::min(step[2], grid[2] - base[2]));
      }
}

}  // namespace

tg_error* launch(tg_queue* queue, tg_executable* executable, const tg_launch_params* params) {
  return guarded("launch", [&]() -> tg_error* {
    if (!queue || !executable || !params || params->struct_size < sizeof(tg_launch_params) || (!params->args && params->arg_count) ||
        executable->device != queue->device)
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: launch: bad argument");
    tg_device* d = queue->device;
    const ir::Kernel& k = executable->kernel;
    Result<std::array<uint32_t, 3>> grid = plugin::validate_launch(executable->signature, *params, buffer_of, d);
    if (!grid.is_ok()) return plugin::launch_error("vulkan", grid.status());
    if (tg_error* e = check_vulkan_limits(k, executable->signature, params)) return e;
    // The generated code counts loops and computes indices in i32: a bound past it would run
    // a truncated count, an index past it could wrap back inside a tensor.
    if (tg_error* e = check_widths(executable, *params, *grid)) return e;

    // Push constants.
    const ShaderInterface& iface = executable->iface;
    std::vector<uint8_t> push((iface.push_bytes + 3) / 4 * 4, 0);
    for (const PushEntry& p : iface.push) {
      if (push_entry_is_grid(p.kind)) continue;  // dispatch_grid's
      const tg_launch_arg& a = params->args[p.arg];
      double value = a.kind == TG_ARG_I64 ? double(a.i64) : a.f64;
      DType dt = p.arg < k.params.size() ? k.params[p.arg].dtype : DType::I32;
      switch (p.kind) {
        case PushTensorOffset: {
          uint32_t off = uint32_t(a.offset / dtype_size(dt));
          std::memcpy(&push[p.offset], &off, 4);
          break;
        }
        case PushI32: {
          int32_t v = p.arg < k.params.size() ? int32_t(round_to_dtype(dt == DType::Bool ? DType::Bool : dt, value)) : int32_t(a.i64);
          std::memcpy(&push[p.offset], &v, 4);
          break;
        }
        case PushF32: {
          float v = float(round_to_dtype(dt, value));
          std::memcpy(&push[p.offset], &v, 4);
          break;
        }
        case PushF64: {
          std::memcpy(&push[p.offset], &value, 8);
          break;
        }
        default: break;
      }
    }
    if (params->grid[0] == 0 || params->grid[1] == 0 || params->grid[2] == 0) return nullptr;

    auto rec = recording(queue);
    if (!rec.is_ok()) return from_status(rec.status(), "launch");
    Submission* s = *rec;
    auto set = allocate_set(d, s, executable);
    if (!set.is_ok()) return from_status(set.status(), "launch");
    size_t tensors = iface.bindings.size();
    std::vector<VkDescriptorBufferInfo> infos(tensors + (iface.fault_word ? 1 : 0));
    std::vector<VkWriteDescriptorSet> writes(infos.size());
    for (size_t b = 0; b < infos.size(); ++b) {
      if (b == tensors) {
        // The fault word (codegen/Generate.h): this launch's slot of the batch's buffer.
        auto slot = fault_slot(queue, s);
        if (!slot.is_ok()) return from_status(slot.status(), "launch");
        infos[b].buffer = s->fault.buffer;
        infos[b].offset = VkDeviceSize(*slot) * d->fault_stride;
        infos[b].range = 16;
        s->fault_launches.push_back({*slot, executable->faults});
      } else {
        tg_buffer* buf = params->args[iface.bindings[b]].buffer;
        infos[b].buffer = buf->buffer;
        infos[b].offset = 0;
        infos[b].range = std::min<VkDeviceSize>(vk_buffer_bytes(buf->size), d->max_storage_range);
        if (buf->size > d->max_storage_range)
          return make_error(TG_ERR_UNSUPPORTED, "vulkan: launch: a buffer of " + std::to_string(buf->size) +
                                                    " bytes exceeds the device's storage-buffer range of " + std::to_string(d->max_storage_range));
      }
      std::memset(&writes[b], 0, sizeof(writes[b]));
      writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      writes[b].dstSet = *set;
      writes[b].dstBinding = uint32_t(b);
      writes[b].descriptorCount = 1;
      writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[b].pBufferInfo = &infos[b];
    }
    if (!writes.empty()) d->fn.vkUpdateDescriptorSets(d->device, uint32_t(writes.size()), writes.data(), 0, nullptr);
    VkCommandBuffer cmd = s->cmd;
    d->fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, executable->pipeline);
    d->fn.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, executable->layout, 0, 1, &*set, 0, nullptr);
    dispatch_grid(d, cmd, executable, push, *grid);
    full_barrier(d, cmd);
    if (++s->launches >= kBatchLaunches) return flush(queue);
    return nullptr;
  });
}

}  // namespace tegula::vulkan
