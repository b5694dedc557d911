/// \file
/// Buffers and transfers. A tg_buffer is a device-local storage buffer. copy_h2d copies the
/// host data into a fresh host-visible staging buffer (so it has finished reading src when it
/// returns) and records a transfer; copy_d2h records a transfer into staging and copies to
/// dst when its batch completes (queue_synchronize); fills use vkCmdFillBuffer for 4-byte
/// aligned patterns and a staged copy otherwise. Every transfer is followed by a barrier.
/// A VkBuffer is vk_buffer_bytes(size) long while the tg_buffer keeps the size asked for.
/// The memory types are chosen once, at device_open (choose_memory_types).
#include <cstdint>
#include <cstring>

#include "plugins/vulkan/VulkanPlugin.h"

namespace tegula::vulkan {
namespace {

/// Every VkBuffer the plugin makes has this usage (and no flags), so all have the same
/// memoryTypeBits and the memory types can be chosen once per device.
constexpr VkBufferUsageFlags kBufferUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

/// A memory type among `bits` with all `required` flags, preferring `preferred` ones; -1 if none.
int memory_type(const VkPhysicalDeviceMemoryProperties& mem, uint32_t bits, VkMemoryPropertyFlags required,
                VkMemoryPropertyFlags preferred) {
  int fallback = -1;
  for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
    if (!(bits & (1u << i))) continue;
    VkMemoryPropertyFlags f = mem.memoryTypes[i].propertyFlags;
    if ((f & required) != required) continue;
    if ((f & preferred) == preferred) return int(i);
    if (fallback < 0) fallback = int(i);
  }
  return fallback;
}

VkResult create_vk_buffer(tg_device* d, uint64_t size, VkBuffer& buffer) {
  VkBufferCreateInfo info;
  std::memset(&info, 0, sizeof(info));
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = vk_buffer_bytes(size);
  info.usage = kBufferUsage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  return d->fn.vkCreateBuffer(d->device, &info, nullptr, &buffer);
}

/// A buffer of `size` bytes in memory type `type` (tg_device::device_memory_type or
/// host_memory_type).
tg_error* make_buffer(tg_device* d, uint64_t size, uint32_t type, VkBuffer& buffer, VkDeviceMemory& memory) {
  VkResult r = create_vk_buffer(d, size, buffer);
  if (r != VK_SUCCESS) return vk_error(r, "vkCreateBuffer");
  VkMemoryRequirements req;
  d->fn.vkGetBufferMemoryRequirements(d->device, buffer, &req);
  if (!(req.memoryTypeBits & (1u << type))) {
    d->fn.vkDestroyBuffer(d->device, buffer, nullptr);
    return make_error(TG_ERR_DEVICE, "vulkan: the buffer cannot live in the memory type chosen at device_open");
  }
  VkMemoryAllocateInfo alloc;
  std::memset(&alloc, 0, sizeof(alloc));
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  r = d->fn.vkAllocateMemory(d->device, &alloc, nullptr, &memory);
  if (r != VK_SUCCESS) {
    d->fn.vkDestroyBuffer(d->device, buffer, nullptr);
    return vk_error(r, "vkAllocateMemory");
  }
  r = d->fn.vkBindBufferMemory(d->device, buffer, memory, 0);
  if (r != VK_SUCCESS) {
    d->fn.vkDestroyBuffer(d->device, buffer, nullptr);
    d->fn.vkFreeMemory(d->device, memory, nullptr);
    return vk_error(r, "vkBindBufferMemory");
  }
  return nullptr;
}

bool owns(tg_device* d, tg_buffer* b) { return b && d->buffers.count(b); }

}  // namespace

tg_error* choose_memory_types(tg_device* d) {
  VkBuffer probe = VK_NULL_HANDLE;
  VkResult r = create_vk_buffer(d, 0, probe);
  if (r != VK_SUCCESS) return vk_error(r, "vkCreateBuffer");
  VkMemoryRequirements req;
  d->fn.vkGetBufferMemoryRequirements(d->device, probe, &req);
  d->fn.vkDestroyBuffer(d->device, probe, nullptr);
  VkPhysicalDeviceMemoryProperties mem;
  d->plugin->vk.vkGetPhysicalDeviceMemoryProperties(d->phys->handle, &mem);
  int device_type = memory_type(mem, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  int host_type = memory_type(mem, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                              VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
  if (device_type < 0) return make_error(TG_ERR_DEVICE, "vulkan: no device-local memory type holds storage buffers");
  if (host_type < 0) return make_error(TG_ERR_DEVICE, "vulkan: no host-visible, coherent memory type holds storage buffers");
  d->device_memory_type = uint32_t(device_type);
  d->host_memory_type = uint32_t(host_type);
  return nullptr;
}

tg_error* create_host_buffer(tg_device* d, uint64_t size, HostBuffer& out) {
  out.size = size;
  if (tg_error* e = make_buffer(d, size, d->host_memory_type, out.buffer, out.memory)) return e;
  VkResult r = d->fn.vkMapMemory(d->device, out.memory, 0, VK_WHOLE_SIZE, 0, &out.mapped);
  if (r != VK_SUCCESS) {
    destroy_host_buffer(d, out);
    return vk_error(r, "vkMapMemory");
  }
  return nullptr;
}

void destroy_host_buffer(tg_device* d, HostBuffer& b) {
  if (b.mapped) d->fn.vkUnmapMemory(d->device, b.memory);
  if (b.buffer) d->fn.vkDestroyBuffer(d->device, b.buffer, nullptr);
  if (b.memory) d->fn.vkFreeMemory(d->device, b.memory, nullptr);
  b = HostBuffer{};
}

tg_error* buffer_alloc(tg_device* device, uint64_t size, tg_buffer** out_buffer) {
  return guarded("buffer_alloc", [&]() -> tg_error* {
    if (!device || !out_buffer) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: buffer_alloc: NULL argument");
    auto* b = new tg_buffer;
    b->device = device;
    b->size = size;
    if (tg_error* e = make_buffer(device, size, device->device_memory_type, b->buffer, b->memory)) {
      delete b;
      return e;
    }
    device->buffers.insert(b);
    *out_buffer = b;
    return nullptr;
  });
}

void buffer_free(tg_buffer* buffer) {
  guarded_void([&] {
    if (!buffer) return;
    tg_device* d = buffer->device;
    // Work in flight may still use it: let every queue finish first.
    for (tg_queue* q : d->queues) (void)drain(q);
    d->fn.vkDestroyBuffer(d->device, buffer->buffer, nullptr);
    d->fn.vkFreeMemory(d->device, buffer->memory, nullptr);
    d->buffers.erase(buffer);
    delete buffer;
  });
}

/// Stage `size` bytes from `src` and record their copy into dst.
static tg_error* staged_upload(tg_queue* q, tg_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size) {
  tg_device* d = q->device;
  auto rec = recording(q);
  if (!rec.is_ok()) return from_status(rec.status(), "copy");
  Submission* s = *rec;
  HostBuffer h;
  if (tg_error* e = create_host_buffer(d, size, h)) return e;
  std::memcpy(h.mapped, src, size_t(size));
  s->staging.push_back(h);
  VkBufferCopy region{0, dst_offset, size};
  d->fn.vkCmdCopyBuffer(s->cmd, h.buffer, dst->buffer, 1, &region);
  full_barrier(d, s->cmd);
  return nullptr;
}

tg_error* copy_h2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size) {
  return guarded("copy_h2d", [&]() -> tg_error* {
    if (!queue || !owns(queue->device, dst) || (!src && size))
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: copy_h2d: bad argument");
    if (!range_ok(dst->size, dst_offset, size)) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: copy_h2d: range outside the buffer");
    if (size == 0) return nullptr;
    return staged_upload(queue, dst, dst_offset, src, size);
  });
}

tg_error* copy_d2h(tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset, uint64_t size) {
  return guarded("copy_d2h", [&]() -> tg_error* {
    if (!queue || !owns(queue->device, src) || (!dst && size))
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: copy_d2h: bad argument");
    if (!range_ok(src->size, src_offset, size)) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: copy_d2h: range outside the buffer");
    if (size == 0) return nullptr;
    tg_device* d = queue->device;
    auto rec = recording(queue);
    if (!rec.is_ok()) return from_status(rec.status(), "copy_d2h");
    Submission* s = *rec;
    HostBuffer h;
    if (tg_error* e = create_host_buffer(d, size, h)) return e;
    s->staging.push_back(h);
    VkBufferCopy region{src_offset, 0, size};
    d->fn.vkCmdCopyBuffer(s->cmd, src->buffer, h.buffer, 1, &region);
    full_barrier(d, s->cmd);
    s->readbacks.push_back({dst, s->staging.size() - 1, size});
    return nullptr;
  });
}

tg_error* copy_d2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src, uint64_t src_offset, uint64_t size) {
  return guarded("copy_d2d", [&]() -> tg_error* {
    if (!queue || !owns(queue->device, dst) || !owns(queue->device, src))
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: copy_d2d: bad argument");
    if (!range_ok(dst->size, dst_offset, size) || !range_ok(src->size, src_offset, size))
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: copy_d2d: range outside a buffer");
    if (size == 0) return nullptr;
    tg_device* d = queue->device;
    auto rec = recording(queue);
    if (!rec.is_ok()) return from_status(rec.status(), "copy_d2d");
    Submission* s = *rec;
    bool overlap = dst == src && dst_offset < src_offset + size && src_offset < dst_offset + size;
    if (!overlap) {
      VkBufferCopy region{src_offset, dst_offset, size};
      d->fn.vkCmdCopyBuffer(s->cmd, src->buffer, dst->buffer, 1, &region);
      full_barrier(d, s->cmd);
      return nullptr;
    }
    // Overlapping ranges of one buffer go through a temporary (Vulkan forbids overlap).
    HostBuffer h;
    if (tg_error* e = create_host_buffer(d, size, h)) return e;
    s->staging.push_back(h);
    VkBufferCopy in{src_offset, 0, size}, out{0, dst_offset, size};
    d->fn.vkCmdCopyBuffer(s->cmd, src->buffer, h.buffer, 1, &in);
    full_barrier(d, s->cmd);
    d->fn.vkCmdCopyBuffer(s->cmd, h.buffer, dst->buffer, 1, &out);
    full_barrier(d, s->cmd);
    return nullptr;
  });
}

tg_error* buffer_fill(tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern, uint32_t pattern_size) {
  return guarded("buffer_fill", [&]() -> tg_error* {
    if (!queue || !owns(queue->device, buffer) || !pattern)
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: buffer_fill: bad argument");
    if (pattern_size != 1 && pattern_size != 2 && pattern_size != 4 && pattern_size != 8)
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: buffer_fill: pattern size must be 1, 2, 4 or 8");
    if (size % pattern_size) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: buffer_fill: size is not a multiple of the pattern");
    if (!range_ok(buffer->size, offset, size)) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: buffer_fill: range outside the buffer");
    if (size == 0) return nullptr;
    uint8_t bytes[8];
    for (uint32_t i = 0; i < 8; ++i) bytes[i] = static_cast<const uint8_t*>(pattern)[i % pattern_size];
    uint32_t word;
    std::memcpy(&word, bytes, 4);
    bool word_pattern = pattern_size <= 4 || std::memcmp(bytes, bytes + 4, 4) == 0;
    if (word_pattern && offset % 4 == 0 && size % 4 == 0) {
      auto rec = recording(queue);
      if (!rec.is_ok()) return from_status(rec.status(), "buffer_fill");
      queue->device->fn.vkCmdFillBuffer((*rec)->cmd, buffer->buffer, offset, size, word);
      full_barrier(queue->device, (*rec)->cmd);
      return nullptr;
    }
    std::vector<uint8_t> data(static_cast<size_t>(size));
    for (size_t i = 0; i < data.size(); ++i) data[i] = bytes[i % pattern_size];
    return staged_upload(queue, buffer, offset, data.data(), size);
  });
}

}  // namespace tegula::vulkan
