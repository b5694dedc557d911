/*
 * error.c: the null plugin's error objects.
 *
 * An error owns a copy of its message. When even that allocation fails the plugin hands out
 * one static out-of-memory error, which error_destroy recognises and does not free: a plugin
 * must never answer a failure with NULL, which means success.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "null_plugin.h"

struct tg_error {
  tg_status_code code;
  const char* message; /* NUL-terminated: points at storage, or at a static string */
  char storage[];
};

static tg_error null_oom_error = {TG_ERR_OUT_OF_MEMORY, "null: out of memory"};

static tg_error* oom_error(void) { return &null_oom_error; }

tg_error* null_error(tg_status_code code, const char* format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  if (n < 0) text[0] = '\0';
  size_t length = strlen(text);
  tg_error* error = (tg_error*)malloc(sizeof(tg_error) + length + 1);
  if (!error) return oom_error();
  error->code = code;
  memcpy(error->storage, text, length + 1);
  error->message = error->storage;
  return error;
}

tg_error* null_unimplemented(const char* entry) {
  return null_error(TG_ERR_UNIMPLEMENTED, "null: %s is not implemented", entry);
}

tg_status_code null_error_code(const tg_error* error) { return error ? error->code : TG_OK; }

const char* null_error_message(const tg_error* error) { return error ? error->message : ""; }

void null_error_destroy(tg_error* error) {
  if (!error || error == oom_error()) return;
  free(error);
}
