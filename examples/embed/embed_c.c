/* Embedding tegula from C: open the runtime, find the reference device, compile a kernel
 * from IR text (a row sum), run it and check the result. */
#include <stdio.h>
#include <string.h>

#include <tegula/tegula.h>

static const char* kRowSum =
    "kernel row_sum(A: f32[M, N], S: f32[M]) grid(M) threads(32) {\n"
    "  alloc a: fragment f32[1, 64]\n"
    "  alloc s: fragment f32[1]\n"
    "  copy A[bx, 0], a\n"
    "  reduce a, s, op=sum, axis=1\n"
    "  copy s, S[bx]\n"
    "}\n";

static int check(tegula_error* err, const char* what) {
  if (!err) return 0;
  fprintf(stderr, "embed_c: %s: %s (%s)\n", what, tegula_error_message(err),
          tegula_error_code_name(tegula_error_get_code(err)));
  tegula_error_free(err);
  return 1;
}

int main(void) {
  enum { M = 4, N = 64 };
  float a[M * N], s[M];
  for (int i = 0; i < M * N; ++i) a[i] = (float)(i % N);
  tegula_runtime* rt = NULL;
  tegula_device* dev = NULL;
  tegula_kernel* k = NULL;
  tegula_buffer* ba = NULL;
  tegula_buffer* bs = NULL;
  int failed = check(tegula_runtime_open(NULL, &rt), "open") ||
               check(tegula_device_find(rt, "reference", &dev), "find") ||
               check(tegula_kernel_compile(dev, kRowSum, strlen(kRowSum), NULL, &k), "compile") ||
               check(tegula_buffer_alloc(dev, sizeof(a), &ba), "alloc") ||
               check(tegula_buffer_alloc(dev, sizeof(s), &bs), "alloc") ||
               check(tegula_buffer_write(ba, 0, a, sizeof(a)), "write");
  if (!failed) {
    tegula_arg args[4];
    args[0] = tegula_arg_tensor(ba, 0);
    args[1] = tegula_arg_tensor(bs, 0);
    args[2] = tegula_arg_int(M);
    args[3] = tegula_arg_int(N);
    failed = check(tegula_launch(k, args, 4), "launch") || check(tegula_device_synchronize(dev), "synchronize") ||
             check(tegula_buffer_read(bs, 0, s, sizeof(s)), "read");
  }
  for (int i = 0; !failed && i < M; ++i) {
    if (s[i] != (float)(N * (N - 1) / 2)) {
      fprintf(stderr, "embed_c: S[%d] = %g, expected %d\n", i, s[i], N * (N - 1) / 2);
      failed = 1;
    }
  }
  tegula_kernel_free(k);
  tegula_buffer_free(ba);
  tegula_buffer_free(bs);
  tegula_runtime_close(rt);
  if (!failed) printf("embed_c: ok (row_sum on reference:0)\n");
  return failed;
}
