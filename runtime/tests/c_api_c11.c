/* The public C API from plain C11: open a runtime on the reference plugin, run a kernel
 * from IR text and check the result. Returns NULL on success, else a static message. */
#include <stdio.h>
#include <string.h>

#include "runtime/include/tegula/tegula.h"

static char failure[512];

static const char* fail(tegula_error* err, const char* what) {
  snprintf(failure, sizeof(failure), "%s: %s", what, tegula_error_message(err));
  tegula_error_free(err);
  return failure;
}

const char* c_api_c11_run(const char* reference_manifest) {
  static const char* kernel =
      "kernel add_one(X: i32[N]) grid(1) threads(1) {\n"
      "  alloc x: fragment i32[8]\n"
      "  copy X[0], x\n"
      "  map x = x + 1\n"
      "  copy x, X[0]\n"
      "}\n";
  tegula_runtime_options options;
  tegula_runtime_options_init(&options);
  options.manifest_paths = &reference_manifest;
  options.manifest_path_count = 1;
  options.cache_dir = "off";
  options.flags = TEGULA_RUNTIME_IGNORE_ENVIRONMENT;

  tegula_runtime* rt = NULL;
  tegula_error* err = tegula_runtime_open(&options, &rt);
  if (err) return fail(err, "open");
  const char* result = NULL;
  tegula_device* dev = NULL;
  tegula_buffer* buf = NULL;
  tegula_kernel* k = NULL;
  int32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int32_t back[8] = {0};
  if ((err = tegula_device_find(rt, "reference", &dev))) {
    result = fail(err, "find");
    goto done;
  }
  tegula_device_info info;
  memset(&info, 0, sizeof(info));
  info.struct_size = sizeof(info);
  if ((err = tegula_device_get_info(dev, &info))) {
    result = fail(err, "info");
    goto done;
  }
  if (strcmp(info.name, "reference:0") != 0) {
    result = "wrong device name";
    goto done;
  }
  if ((err = tegula_kernel_compile(dev, kernel, strlen(kernel), NULL, &k))) {
    result = fail(err, "compile");
    goto done;
  }
  if ((err = tegula_buffer_alloc(dev, sizeof(values), &buf))) {
    result = fail(err, "alloc");
    goto done;
  }
  if ((err = tegula_buffer_write(buf, 0, values, sizeof(values)))) {
    result = fail(err, "write");
    goto done;
  }
  tegula_arg args[2];
  args[0] = tegula_arg_tensor(buf, 0);
  args[1] = tegula_arg_int(8);
  if ((err = tegula_launch(k, args, 2))) {
    result = fail(err, "launch");
    goto done;
  }
  if ((err = tegula_device_synchronize(dev))) {
    result = fail(err, "synchronize");
    goto done;
  }
  if ((err = tegula_buffer_read(buf, 0, back, sizeof(back)))) {
    result = fail(err, "read");
    goto done;
  }
  for (int i = 0; i < 8; ++i)
    if (back[i] != values[i] + 1) result = "wrong result";
  /* An error's code and message, and freeing NULL. */
  err = tegula_device_find(rt, "nope", &dev);
  if (tegula_error_get_code(err) != TEGULA_ERROR_NOT_FOUND) result = "expected NOT_FOUND";
  tegula_error_free(err);
  tegula_error_free(NULL);
done:
  tegula_kernel_free(k);
  tegula_buffer_free(buf);
  tegula_runtime_close(rt);
  return result;
}
