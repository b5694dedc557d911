/// \file
/// tegula_cuda_gen: a developer's view of the cuda plugin's code generation.
///
///   tegula_cuda_gen FILE.tile TARGET [--raster G] [--div SYM=D ...] [--option KEY=VALUE ...]
///                   [--show lowered|cuda|ptx|all|none]
///                   (--show cuda stops before compiling) [--cubin OUT.cubin]
///
/// lowers FILE for a built-in TARGET (sm_80, sm_89, sm_90a, sm_100a), generates the CUDA C++
/// and compiles it with NVRTC; prints what --show asks (default: all).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "plugins/cuda/Compile.h"
#include "plugins/cuda/codegen/CodeGen.h"

using namespace tegula;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: tegula_cuda_gen FILE.tile TARGET [--raster G] [--div SYM=D ...] [--show lowered|cuda|ptx|all]\n");
    return 2;
  }
  std::ifstream f(argv[1]);
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  ir::LowerOptions o;
  std::string show = "all";
  std::string options;
  std::string cubin_path;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--raster" && i + 1 < argc) o.raster_group = std::atoi(argv[++i]);
    else if (a == "--div" && i + 1 < argc) {
      std::string d = argv[++i];
      size_t eq = d.find('=');
      if (eq == std::string::npos) return 2;
      o.divisibility[d.substr(0, eq)] = std::atoi(d.c_str() + eq + 1);
    } else if (a == "--show" && i + 1 < argc) show = argv[++i];
    else if (a == "--option" && i + 1 < argc) options += std::string(argv[++i]) + "\n";
    else if (a == "--cubin" && i + 1 < argc) cubin_path = argv[++i];
  }
  auto k = ir::parse_and_verify(ss.str(), argv[1]);
  if (!k.is_ok()) return std::fprintf(stderr, "%s\n", k.status().str().c_str()), 1;
  auto t = builtin_target(argv[2]);
  if (!t.is_ok()) return std::fprintf(stderr, "%s\n", t.status().str().c_str()), 1;
  auto lowered = ir::lower(*k, *t, o);
  if (!lowered.is_ok()) return std::fprintf(stderr, "%s\n", lowered.status().str().c_str()), 1;
  std::string text = ir::print_kernel(lowered->kernel);
  if (show == "lowered" || show == "all") std::printf("%s\n", text.c_str());
  auto arch = cuda::arch_for_target(*t);
  if (!arch.is_ok()) return std::fprintf(stderr, "%s\n", arch.status().str().c_str()), 1;
  auto gen_options = cuda::parse_gen_options(options);
  if (!gen_options.is_ok()) return std::fprintf(stderr, "%s\n", gen_options.status().str().c_str()), 1;
  auto g = cuda::generate_cuda(lowered->kernel, *t, *arch, *gen_options);
  if (!g.is_ok()) return std::fprintf(stderr, "%s\n", g.status().str().c_str()), 1;
  if (show == "cuda" || show == "all") std::printf("%s\n", g->source.c_str());
  // The generated C++ alone needs no NVRTC run (which takes seconds to minutes).
  if (show == "cuda") {
    std::fprintf(stderr, "generated: %s, %lld bytes of shared memory, %zu tensor maps\n", g->info.name.c_str(),
                 (long long)g->info.shared_bytes, g->info.tensor_maps.size());
    return 0;
  }
  auto c = cuda::compile_lowered(text, *t, *arch, options);
  if (!c.is_ok()) return std::fprintf(stderr, "%s\n", c.status().str().c_str()), 1;
  if (show == "ptx" || show == "all") std::printf("%s\n", c->executable.ptx.c_str());
  if (!c->log.empty()) std::fprintf(stderr, "%s\n", c->log.c_str());
  if (!cubin_path.empty()) {
    std::ofstream out(cubin_path, std::ios::binary);
    out.write(c->executable.cubin.data(), std::streamsize(c->executable.cubin.size()));
  }
  std::fprintf(stderr, "ok: %s, %zu bytes of cubin, %lld bytes of shared memory, %zu tensor maps\n", c->executable.info.name.c_str(),
               c->executable.cubin.size(), (long long)c->executable.info.shared_bytes, c->executable.info.tensor_maps.size());
  return 0;
}
