/// \file
/// Queues and events. A tg_queue records into one command buffer at a time and submits it
/// with a fence when synchronised, when an event is recorded, or after kBatchLaunches
/// launches; finished batches release their staging buffers and descriptor pools and run
/// their read-backs (staging -> host) in submission order. An event is a timestamp query
/// (where the queue family has timestamps) plus the fence of the batch it ends.
#include <cstdint>
#include <cstring>
#include <memory>

#include "plugins/vulkan/VulkanPlugin.h"

namespace tegula::vulkan {

FenceRef::~FenceRef() {
  if (fence) fn->vkDestroyFence(device, fence, nullptr);
}

void full_barrier(tg_device* d, VkCommandBuffer cmd) {
  VkMemoryBarrier b;
  std::memset(&b, 0, sizeof(b));
  b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                    VK_ACCESS_HOST_READ_BIT;
  VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  d->fn.vkCmdPipelineBarrier(cmd, stages, stages | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &b, 0, nullptr, 0, nullptr);
}

/// A batch's fault buffer goes back to the queue, zeroed, for a later batch.
static void release_submission(tg_queue* q, Submission& s) {
  tg_device* d = q->device;
  VkCommandPool pool = q->pool;
  for (HostBuffer& h : s.staging) destroy_host_buffer(d, h);
  s.staging.clear();
  if (s.fault.buffer) {
    std::memset(s.fault.mapped, 0, size_t(s.fault.size));
    q->fault_free.push_back(s.fault);
    s.fault = HostBuffer{};
  }
  s.fault_launches.clear();
  for (VkDescriptorPool p : s.pools) d->fn.vkDestroyDescriptorPool(d->device, p, nullptr);
  s.pools.clear();
  if (s.cmd) d->fn.vkFreeCommandBuffers(d->device, pool, 1, &s.cmd);
  s.cmd = VK_NULL_HANDLE;
}

Result<Submission*> recording(tg_queue* q) {
  if (q->current) return q->current.get();
  tg_device* d = q->device;
  auto s = std::make_unique<Submission>();
  VkCommandBufferAllocateInfo info;
  std::memset(&info, 0, sizeof(info));
  info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  info.commandPool = q->pool;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkResult r = d->fn.vkAllocateCommandBuffers(d->device, &info, &s->cmd);
  if (r != VK_SUCCESS) return error(ErrorCode::Device, std::string("vkAllocateCommandBuffers failed: ") + vk_result_name(r));
  VkCommandBufferBeginInfo begin;
  std::memset(&begin, 0, sizeof(begin));
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  r = d->fn.vkBeginCommandBuffer(s->cmd, &begin);
  if (r != VK_SUCCESS) {
    d->fn.vkFreeCommandBuffers(d->device, q->pool, 1, &s->cmd);
    return error(ErrorCode::Device, std::string("vkBeginCommandBuffer failed: ") + vk_result_name(r));
  }
  q->current = std::move(s);
  return q->current.get();
}

/// The completed batch's fault words: the first nonzero one becomes the queue's fault
/// (reported by queue_synchronize), unless one is pending already.
static void read_faults(tg_queue* q, const Submission& s) {
  for (const Submission::FaultLaunch& f : s.fault_launches) {
    if (!q->fault.empty()) return;
    uint32_t word;
    std::memcpy(&word, static_cast<const uint8_t*>(s.fault.mapped) + size_t(f.slot) * q->device->fault_stride, 4);
    if (word == 0) continue;
    const FaultTable& t = *f.table;
    std::string site = word <= t.sites.size() ? t.sites[word - 1] : "access number " + std::to_string(word);
    q->fault = "vulkan: kernel '" + t.kernel + "': " + site +
               " is outside the tensor (an element index past its extent); the access was not made (a load reads 0), and "
               "the launch's results are those of an erroneous program";
  }
}

Result<uint32_t> fault_slot(tg_queue* q, Submission* s) {
  tg_device* d = q->device;
  if (!s->fault.buffer) {
    if (!q->fault_free.empty()) {
      s->fault = q->fault_free.back();
      q->fault_free.pop_back();
    } else {
      HostBuffer h;
      if (tg_error* e = create_host_buffer(d, uint64_t(kBatchLaunches) * d->fault_stride, h)) {
        Status st = error(ErrorCode::Device, std::string("the fault buffer: ") + error_message(e));
        error_destroy(e);
        return st;
      }
      std::memset(h.mapped, 0, size_t(h.size));
      s->fault = h;
    }
  }
  // A batch holds at most kBatchLaunches launches (launch flushes at that count).
  if (s->fault_launches.size() >= kBatchLaunches) return error(ErrorCode::Internal, "vulkan: more launches in a batch than fault slots");
  return uint32_t(s->fault_launches.size());
}

/// Retire finished batches from the front (all of them, waiting, when `wait`).
static tg_error* retire(tg_queue* q, bool wait) {
  tg_device* d = q->device;
  while (!q->in_flight.empty()) {
    Submission& s = *q->in_flight.front();
    if (wait) {
      VkResult r = d->fn.vkWaitForFences(d->device, 1, &s.fence->fence, VK_TRUE, UINT64_MAX);
      if (r != VK_SUCCESS) return vk_error(r, "vkWaitForFences");
    } else if (d->fn.vkGetFenceStatus(d->device, s.fence->fence) != VK_SUCCESS) {
      break;
    }
    for (const Submission::Readback& rb : s.readbacks) std::memcpy(rb.dst, s.staging[rb.staging].mapped, size_t(rb.size));
    read_faults(q, s);
    release_submission(q, s);
    q->in_flight.pop_front();
  }
  return nullptr;
}

tg_error* flush(tg_queue* q, std::shared_ptr<FenceRef>* out_fence) {
  tg_device* d = q->device;
  if (!q->current) {
    if (out_fence) {
      // Nothing recorded: an empty batch still gives the caller a point in the queue.
      auto rec = recording(q);
      if (!rec.is_ok()) return from_status(rec.status(), "flush");
    } else {
      return nullptr;
    }
  }
  Submission& s = *q->current;
  // Once ended, the command buffer takes no more commands: on any failure from here the
  // batch is dropped (with its staging buffers and pools) so the next command begins a
  // fresh one; the caller gets the error.
  auto abandon = [&](VkResult r, const char* what) {
    release_submission(q, s);
    q->current.reset();
    return vk_error(r, what);
  };
  VkResult r = d->fn.vkEndCommandBuffer(s.cmd);
  if (r != VK_SUCCESS) return abandon(r, "vkEndCommandBuffer");
  VkFenceCreateInfo finfo;
  std::memset(&finfo, 0, sizeof(finfo));
  finfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  auto fence = std::make_shared<FenceRef>();
  fence->device = d->device;
  fence->fn = &d->fn;
  r = d->fn.vkCreateFence(d->device, &finfo, nullptr, &fence->fence);
  if (r != VK_SUCCESS) return abandon(r, "vkCreateFence");
  VkSubmitInfo submit;
  std::memset(&submit, 0, sizeof(submit));
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &s.cmd;
  {
    std::lock_guard<std::mutex> lock(d->submit_mu);
    r = d->fn.vkQueueSubmit(d->queue, 1, &submit, fence->fence);
  }
  if (r != VK_SUCCESS) return abandon(r, "vkQueueSubmit");
  s.fence = fence;
  if (out_fence) *out_fence = fence;
  q->in_flight.push_back(std::move(q->current));
  return retire(q, false);
}

tg_error* drain(tg_queue* q) {
  if (tg_error* e = flush(q)) return e;
  return retire(q, true);
}

void destroy_queue(tg_queue* q) {
  tg_device* d = q->device;
  if (q->current) {
    d->fn.vkEndCommandBuffer(q->current->cmd);
    release_submission(q, *q->current);
  }
  for (auto& s : q->in_flight) {
    if (s->fence) d->fn.vkWaitForFences(d->device, 1, &s->fence->fence, VK_TRUE, UINT64_MAX);
    release_submission(q, *s);
  }
  for (HostBuffer& h : q->fault_free) destroy_host_buffer(d, h);
  d->fn.vkDestroyCommandPool(d->device, q->pool, nullptr);
  delete q;
}

// --- events ------------------------------------------------------------------------------

tg_error* event_create(tg_device* device, tg_event** out_event) {
  return guarded("event_create", [&]() -> tg_error* {
    if (!device || !out_event) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: event_create: NULL argument");
    auto* e = new tg_event;
    e->device = device;
    if (device->phys->caps.timestamps) {
      VkQueryPoolCreateInfo info;
      std::memset(&info, 0, sizeof(info));
      info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
      info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      info.queryCount = 1;
      if (device->fn.vkCreateQueryPool(device->device, &info, nullptr, &e->queries) != VK_SUCCESS) e->queries = VK_NULL_HANDLE;
    }
    device->events.insert(e);
    *out_event = e;
    return nullptr;
  });
}

void event_destroy(tg_event* event) {
  guarded_void([&] {
    if (!event) return;
    tg_device* d = event->device;
    if (event->fence) d->fn.vkWaitForFences(d->device, 1, &event->fence->fence, VK_TRUE, UINT64_MAX);
    event->fence.reset();
    if (event->queries) d->fn.vkDestroyQueryPool(d->device, event->queries, nullptr);
    d->events.erase(event);
    delete event;
  });
}

tg_error* event_record(tg_queue* queue, tg_event* event) {
  return guarded("event_record", [&]() -> tg_error* {
    if (!queue || !event || event->device != queue->device)
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: event_record: bad argument");
    tg_device* d = queue->device;
    // A re-recorded event must not be overwritten while its previous batch is pending.
    if (event->fence) {
      VkResult r = d->fn.vkWaitForFences(d->device, 1, &event->fence->fence, VK_TRUE, UINT64_MAX);
      if (r != VK_SUCCESS) return vk_error(r, "vkWaitForFences");
    }
    auto rec = recording(queue);
    if (!rec.is_ok()) return from_status(rec.status(), "event_record");
    if (event->queries) {
      d->fn.vkCmdResetQueryPool((*rec)->cmd, event->queries, 0, 1);
      d->fn.vkCmdWriteTimestamp((*rec)->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, event->queries, 0);
    }
    event->recorded = true;
    return flush(queue, &event->fence);
  });
}

tg_error* event_synchronize(tg_event* event) {
  return guarded("event_synchronize", [&]() -> tg_error* {
    if (!event) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: event_synchronize: NULL event");
    if (!event->recorded || !event->fence) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: event_synchronize: event never recorded");
    tg_device* d = event->device;
    VkResult r = d->fn.vkWaitForFences(d->device, 1, &event->fence->fence, VK_TRUE, UINT64_MAX);
    if (r != VK_SUCCESS) return vk_error(r, "vkWaitForFences");
    return nullptr;
  });
}

tg_error* event_elapsed_ms(tg_event* start, tg_event* end, double* out_ms) {
  return guarded("event_elapsed_ms", [&]() -> tg_error* {
    if (!start || !end || !out_ms || start->device != end->device)
      return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: event_elapsed_ms: bad argument");
    tg_device* d = start->device;
    if (!start->queries || !end->queries) return make_error(TG_ERR_UNSUPPORTED, "vulkan: this device's queue has no timestamps");
    for (tg_event* e : {start, end}) {
      if (!e->recorded || !e->fence) return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: event_elapsed_ms: event never recorded");
      if (d->fn.vkGetFenceStatus(d->device, e->fence->fence) != VK_SUCCESS)
        return make_error(TG_ERR_INVALID_ARGUMENT, "vulkan: event_elapsed_ms: event not completed (synchronize it first)");
    }
    uint64_t t[2];
    for (int i = 0; i < 2; ++i) {
      VkResult r = d->fn.vkGetQueryPoolResults(d->device, (i ? end : start)->queries, 0, 1, sizeof(uint64_t), &t[i], sizeof(uint64_t),
                                               VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
      if (r != VK_SUCCESS) return vk_error(r, "vkGetQueryPoolResults");
    }
    // Only the low timestampValidBits count; the difference modulo 2^bits survives a wrap.
    uint32_t bits = d->phys->timestamp_valid_bits;
    uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    double ticks = double((t[1] - t[0]) & mask);
    *out_ms = ticks * double(d->phys->caps.timestamp_period) / 1e6;
    return nullptr;
  });
}

}  // namespace tegula::vulkan
