/// \file
/// Events: CUDA events recorded on a queue's stream.
#include "plugins/cuda/Cuda.h"

namespace tegula::cuda {

tg_error* event_create(tg_device* device, tg_event** out_event) {
  return guarded("event_create", [&]() -> tg_error* {
    if (!device || !out_event) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: event_create: NULL argument");
    if (tg_error* e = activate(device)) return e;
    const Driver& d = *device->plugin->driver;
    CUevent ev = nullptr;
    CUresult r = d.cuEventCreate(&ev, kEventDefault);
    if (r != kCudaSuccess) return driver_error(d, r, "cuEventCreate");
    tg_event* event = new tg_event;
    event->device = device;
    event->event = ev;
    device->events.insert(event);
    *out_event = event;
    return nullptr;
  });
}

void event_destroy(tg_event* event) {
  guarded_void([&] {
    if (!event) return;
    const Driver& d = *event->device->plugin->driver;
    d.cuCtxSetCurrent(event->device->context);
    d.cuEventDestroy(event->event);
    event->device->events.erase(event);
    delete event;
  });
}

tg_error* event_record(tg_queue* queue, tg_event* event) {
  if (!queue || !event || event->device != queue->device) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: event_record: bad argument");
  if (tg_error* e = activate(queue->device)) return e;
  const Driver& d = *queue->device->plugin->driver;
  CUresult r = d.cuEventRecord(event->event, queue->stream);
  if (r != kCudaSuccess) return driver_error(d, r, "cuEventRecord");
  event->recorded = true;
  return nullptr;
}

tg_error* event_synchronize(tg_event* event) {
  if (!event) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: event_synchronize: NULL event");
  if (!event->recorded) return nullptr;
  if (tg_error* e = activate(event->device)) return e;
  const Driver& d = *event->device->plugin->driver;
  CUresult r = d.cuEventSynchronize(event->event);
  return r == kCudaSuccess ? nullptr : driver_error(d, r, "cuEventSynchronize");
}

tg_error* event_elapsed_ms(tg_event* start, tg_event* end, double* out_ms) {
  if (!start || !end || !out_ms) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: event_elapsed_ms: NULL argument");
  if (!start->recorded || !end->recorded) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: event_elapsed_ms: an event was never recorded");
  if (tg_error* e = activate(start->device)) return e;
  const Driver& d = *start->device->plugin->driver;
  auto fn = d.cuEventElapsedTime ? d.cuEventElapsedTime : d.cuEventElapsedTimeV1;
  if (!fn) return make_error(TG_ERR_UNIMPLEMENTED, "cuda: the driver has no cuEventElapsedTime");
  float ms = 0;
  CUresult r = fn(&ms, start->event, end->event);
  if (r != kCudaSuccess) return driver_error(d, r, "cuEventElapsedTime");
  *out_ms = ms;
  return nullptr;
}

}  // namespace tegula::cuda
