/// \file
/// Events of the CPU device. Launches and transfers are synchronous, so an event is complete as soon
/// as it is recorded; its time is the wall clock at that moment.
#include "plugins/cpu/Cpu.h"

namespace tegula::cpu {

tg_error* event_create(tg_device* device, tg_event** out_event) {
  return guarded("event_create", [&]() -> tg_error* {
    if (!device || !out_event) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: event_create: NULL argument");
    tg_event* event = new tg_event;
    event->device = device;
    std::lock_guard<std::mutex> lock(device->mu);
    device->events.insert(event);
    *out_event = event;
    return nullptr;
  });
}

void event_destroy(tg_event* event) {
  guarded_void([&] {
    if (!event) return;
    {
      std::lock_guard<std::mutex> lock(event->device->mu);
      event->device->events.erase(event);
    }
    delete event;
  });
}

tg_error* event_record(tg_queue* queue, tg_event* event) {
  if (!queue || !event || event->device != queue->device)
    return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: event_record: bad argument");
  event->recorded = true;
  event->time = std::chrono::steady_clock::now();
  return nullptr;
}

tg_error* event_synchronize(tg_event* event) {
  if (!event) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: event_synchronize: NULL event");
  return nullptr;
}

tg_error* event_elapsed_ms(tg_event* start, tg_event* end, double* out_ms) {
  if (!start || !end || !out_ms) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: event_elapsed_ms: NULL argument");
  if (!start->recorded || !end->recorded)
    return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: event_elapsed_ms: an event was never recorded");
  *out_ms = std::chrono::duration<double, std::milli>(end->time - start->time).count();
  return nullptr;
}

}  // namespace tegula::cpu
