/*
 * event.c: points in a queue, for waiting and timing.
 */
#include "null_plugin.h"

tg_error* null_event_create(tg_device* device, tg_event** out_event) {
  (void)device;
  (void)out_event;
  /* TODO(null): create a driver event. */
  return null_unimplemented("event_create");
}

void null_event_destroy(tg_event* event) {
  (void)event;
  /* TODO(null): destroy the event. */
}

tg_error* null_event_record(tg_queue* queue, tg_event* event) {
  (void)queue;
  (void)event;
  /* TODO(null): record the event at the current end of the queue. */
  return null_unimplemented("event_record");
}

tg_error* null_event_synchronize(tg_event* event) {
  (void)event;
  /* TODO(null): wait until the event completed. */
  return null_unimplemented("event_synchronize");
}

tg_error* null_event_elapsed_ms(tg_event* start, tg_event* end, double* out_ms) {
  (void)start;
  (void)end;
  (void)out_ms;
  /* TODO(null): milliseconds between two completed events (optional: may be NULL in the
   * table instead). */
  return null_unimplemented("event_elapsed_ms");
}
