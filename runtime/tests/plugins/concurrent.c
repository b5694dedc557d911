/*
 * concurrent.c: a test plugin whose compile waits, up to 300 ms, for a second compile to be
 * in flight, and logs the most it has seen at once ("compile: at most N at once"), so a test
 * can tell whether the host called it from several threads at the same time. executable_load
 * counts the same way ("executable_load: at most N at once").
 *
 * TP_CONCURRENT=1 declares TG_CONCURRENT_COMPILE; without it the plugin answers get_info
 * with the first release's tg_plugin_info (TG_PLUGIN_INFO_SIZE_1), as a plugin built before
 * the concurrency field was appended, and the host must serialise it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "runtime/tests/plugins/common.h"

struct tg_executable {
  int unused;
};

static void (*host_log)(void*, tg_log_level, const char*);
static void* host_log_user;

/* One counter per entry: in flight now, and the most seen at once. */
typedef struct probe {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int in_flight;
  int most;
} probe;
static probe compile_probe = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
static probe load_probe = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};

/* Enter, wait up to 300 ms for company, leave; log the most seen at once. With the host's
 * lock held no second call can arrive, and each call waits out its 300 ms alone. */
static void visit(probe* p, const char* entry) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_nsec += 300 * 1000 * 1000;
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000;
  }
  pthread_mutex_lock(&p->mu);
  p->in_flight++;
  if (p->in_flight > p->most) p->most = p->in_flight;
  pthread_cond_broadcast(&p->cv);
  while (p->in_flight < 2)
    if (pthread_cond_timedwait(&p->cv, &p->mu, &deadline) == ETIMEDOUT) break;
  int most = p->most;
  p->in_flight--;
  pthread_mutex_unlock(&p->mu);
  char line[96];
  snprintf(line, sizeof line, "%s: at most %d at once", entry, most);
  if (host_log) host_log(host_log_user, TG_LOG_INFO, line);
}

static tg_error* cc_get_info(tg_plugin_info* out) {
  tg_error* e = tp_get_info(out);
  if (e) return e;
#if TP_CONCURRENT
  out->concurrency = TG_CONCURRENT_COMPILE;
  out->reserved = 0;
#else
  out->struct_size = TG_PLUGIN_INFO_SIZE_1;
#endif
  return NULL;
}

static tg_error* (*base_init)(const tg_host_info*, tg_plugin**);
static tg_error* cc_init(const tg_host_info* host, tg_plugin** out) {
  host_log = host->log;
  host_log_user = host->log_user;
  return base_init(host, out);
}

static const char kExecutable[] = "concurrent test executable";

static tg_error* cc_compile(tg_device* d, const tg_compile_request* r, tg_blob* out) {
  (void)d;
  (void)r;
  visit(&compile_probe, "compile");
  out->data = kExecutable;
  out->size = sizeof kExecutable;
  out->opaque = NULL;
  return NULL;
}

static tg_error* cc_executable_load(tg_device* d, const void* data, size_t size, tg_executable** out) {
  (void)d;
  (void)data;
  (void)size;
  visit(&load_probe, "executable_load");
  *out = (tg_executable*)calloc(1, sizeof(tg_executable));
  return *out ? NULL : tp_error(TG_ERR_OUT_OF_MEMORY, "executable_load");
}

static void cc_executable_free(tg_executable* e) { free(e); }

TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi, uint32_t host_max_abi,
                                                      const char** out_refusal) {
  (void)host_min_abi;
  (void)host_max_abi;
  (void)out_refusal;
  static tg_plugin_api api;
  api = tp_base_api();
  base_init = api.init;
  api.get_info = cc_get_info;
  api.init = cc_init;
  api.compile = cc_compile;
  api.executable_load = cc_executable_load;
  api.executable_free = cc_executable_free;
  return &api;
}
