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
#include <cstring>
#include <string>
#include <thread>
typedef int (*Create)(void**, const char*, const char*, int, const char* const*, const char* const*);
typedef int (*Compile)(void*, int, const char* const*);
typedef int (*Destroy)(void**);
static Create create; static Compile compile; static Destroy destroy;
double now() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
double run(const std::string& src, const char* arch) {
  double t = now(); void* p = nullptr;
  create(&p, src.c_str(), "k.cu", 0, nullptr, nullptr);
  std::string a = std::string("-arch=") + arch; const char* opts[] = {a.c_str(), "-std=c++17"};
  int r = compile(p, 2, opts); destroy(&p);
  if (r) std::printf("compile failed %d\n", r);
  return now() - t;
}
std::string kernel(int variant) {
  std::string s = "extern \"C\" __global__ void k" + std::to_string(variant) + "(const float* x, float* y, int n) {\n";
  s += " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; float v = x[i];\n";
  for (int j = 0; j < 40; ++j) s += " v = v * " + std::to_string(j + variant) + ".5f + __expf(v * 0.01f);\n";
  s += " y[i] = v; }\n";
  return s;
}
int main(int argc, char** argv) {
  const char* arch = argc > 2 ? argv[2] : "sm_90a";
  std::string mode = argc > 1 ? argv[1] : "plain";
  double t0 = now();
  void* h = dlopen("libnvrtc.so.13", RTLD_NOW);
  if (!h) { std::printf("no nvrtc\n"); return 1; }
  create = (Create)dlsym(h, "nvrtcCreateProgram"); compile = (Compile)dlsym(h, "nvrtcCompileProgram"); destroy = (Destroy)dlsym(h, "nvrtcDestroyProgram");
  double tl = now() - t0;
  double w = 0;
  if (mode == "warm") w = run("extern \"C\" __global__ void w() {}\n", arch);
  std::thread bg;
  if (mode == "thread") bg = std::thread([&] { w = run("extern \"C\" __global__ void w() {}\n", arch); });
  if (mode == "thread") std::this_thread::sleep_for(std::chrono::milliseconds(argc > 3 ? atoi(argv[3]) : 300));
  double a = run(kernel(1), arch), b = run(kernel(2), arch), c = run(kernel(3), arch);
  if (bg.joinable()) bg.join();
  std::printf("%s: dlopen %.1f warm-up %.1f A %.1f B %.1f C %.1f ms\n", mode.c_str(), tl, w, a, b, c);
}
