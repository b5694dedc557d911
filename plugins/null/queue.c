/*
 * queue.c: in-order streams of work.
 */
#include "null_plugin.h"

tg_error* null_queue_create(tg_device* device, tg_queue** out_queue) {
  (void)device;
  (void)out_queue;
  /* TODO(null): create a driver stream. */
  return null_unimplemented("queue_create");
}

void null_queue_destroy(tg_queue* queue) {
  (void)queue;
  /* TODO(null): destroy the stream (after its work finished). */
}

tg_error* null_queue_synchronize(tg_queue* queue) {
  (void)queue;
  /* TODO(null): wait for all work on the stream; report asynchronous failures here. */
  return null_unimplemented("queue_synchronize");
}
