/// \file
/// What NVRTC's first compile in a process costs beyond later ones, and whether a warm-up
/// compile absorbs it (the question behind overlapping NVRTC's start with the CUDA context's
/// creation). Standalone, no tegula: g++ -O2 nvrtc_start.cpp -ldl -pthread.
///
///   nvrtc_start MODE [ARCH] [SLEEP_MS]
///
/// plain: kernels A, B, C (three sources of the same size) compiled one after another;
/// warm: an empty kernel first, on the same thread; thread: the empty kernel on another
/// thread, then A, B, C on this one after SLEEP_MS (default 400). One line per run, in ms.
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

typedef int (*Create)(void**, const char*, const char*, int, const char* const*, const char* const*);
typedef int (*Compile)(void*, int, const char* const*);
typedef int (*Destroy)(void**);
static Create create;
static Compile compile;
static Destroy destroy;

static double now() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// ms to create, compile (to a cubin for `arch`) and destroy one program.
static double run(const std::string& src, const char* arch) {
  double t = now();
  void* p = nullptr;
  if (create(&p, src.c_str(), "k.cu", 0, nullptr, nullptr) != 0) {
    std::printf("nvrtcCreateProgram failed\n");
    return -1;
  }
  std::string a = std::string("-arch=") + arch;
  const char* opts[] = {a.c_str(), "-std=c++17"};
  int r = compile(p, 2, opts);
  destroy(&p);
  if (r) std::printf("compile failed %d\n", r);
  return now() - t;
}

/// A source of 40 dependent fused multiply-adds with exp, different per variant.
static std::string kernel(int variant) {
  std::string s = "extern \"C\" __global__ void k" + std::to_string(variant) + "(const float* x, float* y, int n) {\n";
  s += " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; float v = x[i];\n";
  for (int j = 0; j < 40; ++j) s += " v = v * " + std::to_string(j + variant) + ".5f + __expf(v * 0.01f);\n";
  s += " y[i] = v; }\n";
  return s;
}

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "plain";
  const char* arch = argc > 2 ? argv[2] : "sm_90a";
  int sleep_ms = argc > 3 ? std::atoi(argv[3]) : 400;
  double t0 = now();
  void* h = dlopen("libnvrtc.so.13", RTLD_NOW);
  if (!h) {
    std::printf("no nvrtc: %s\n", dlerror());
    return 1;
  }
  create = (Create)dlsym(h, "nvrtcCreateProgram");
  compile = (Compile)dlsym(h, "nvrtcCompileProgram");
  destroy = (Destroy)dlsym(h, "nvrtcDestroyProgram");
  if (!create || !compile || !destroy) {
    std::printf("libnvrtc.so.13 lacks a symbol\n");
    return 1;
  }
  double load_ms = now() - t0, warm_ms = 0;
  const std::string empty = "extern \"C\" __global__ void w() {}\n";
  std::thread background;
  if (mode == "warm") warm_ms = run(empty, arch);
  if (mode == "thread") {
    background = std::thread([&] { warm_ms = run(empty, arch); });
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
  }
  double a = run(kernel(1), arch), b = run(kernel(2), arch), c = run(kernel(3), arch);
  if (background.joinable()) background.join();
  std::printf("%s: dlopen %.1f warm-up %.1f A %.1f B %.1f C %.1f ms\n", mode.c_str(), load_ms, warm_ms, a, b, c);
  return 0;
}
