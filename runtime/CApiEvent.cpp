/// \file
/// The C API: events.
#include "runtime/CApiSupport.h"
#include "runtime/Objects.h"

using namespace tegula;
using namespace tegula::runtime;

namespace {

tegula_error* invalid(const char* message) { return to_c_error(error(ErrorCode::InvalidArgument, message)); }

}  // namespace

extern "C" {

tegula_error* tegula_event_create(tegula_device* d, tegula_event** out) {
  if (!d || !out) return invalid("tegula_event_create: bad argument");
  return c_guard([&]() -> tegula_error* {
    Result<tg_event*> handle = d->plugin->event_create(d->info->index);
    if (!handle.is_ok()) return to_c_error(handle.status());
    auto* e = new tegula_event{d, *handle};
    tegula_runtime* rt = d->runtime;
    std::lock_guard<std::mutex> lock(rt->objects_mu);
    rt->events.insert(e);
    *out = e;
    return nullptr;
  });
}

void tegula_event_free(tegula_event* e) {
  if (!e) return;
  tegula_runtime* rt = e->device->runtime;
  {
    std::lock_guard<std::mutex> lock(rt->objects_mu);
    rt->events.erase(e);
  }
  e->device->plugin->event_destroy(e->handle);
  delete e;
}

tegula_error* tegula_event_record(tegula_event* e) {
  if (!e) return invalid("tegula_event_record: event is NULL");
  return to_c_error(e->device->plugin->event_record(e->device->info->index, e->handle));
}

tegula_error* tegula_event_synchronize(tegula_event* e) {
  if (!e) return invalid("tegula_event_synchronize: event is NULL");
  return to_c_error(e->device->plugin->event_synchronize(e->handle));
}

tegula_error* tegula_event_elapsed_ms(const tegula_event* start, const tegula_event* end, double* out_ms) {
  if (!start || !end || !out_ms) return invalid("tegula_event_elapsed_ms: bad argument");
  if (start->device != end->device) return invalid("tegula_event_elapsed_ms: the events are on different devices");
  Result<double> ms = start->device->plugin->event_elapsed_ms(start->handle, end->handle);
  if (!ms.is_ok()) return to_c_error(ms.status());
  *out_ms = *ms;
  return nullptr;
}

}  // extern "C"
