/// \file
/// tegula_vulkan_gen: a developer's view of the vulkan plugin's code generation, without a
/// device.
///
///   tegula_vulkan_gen FILE.tile DEVICE [--div SYM=D ...] [--show lowered|spirv|all|none]
///                     [--spv OUT.spv] [--aligned]
///   tegula_vulkan_gen --target DEVICE     (the device's description, JSON)
///
/// lowers FILE for the description a known DEVICE (h200, lavapipe) reports, generates the
/// SPIR-V and prints what --show asks (default: all; the SPIR-V through spirv-dis when it is
/// on the PATH, else the plugin's own listing).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "plugins/vulkan/KnownDevices.h"
#include "plugins/vulkan/codegen/Generate.h"
#include "plugins/vulkan/spirv/Listing.h"
#include "targets/Target.h"

using namespace tegula;

namespace {

int usage() {
  std::fprintf(stderr, "usage: tegula_vulkan_gen FILE.tile (h200|lavapipe) [--div SYM=D ...] [--show lowered|spirv|all|none] [--spv OUT.spv] [--aligned]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--target") {
    std::string device = argv[2];
    if (device != "h200" && device != "lavapipe") return usage();
    std::printf("%s\n", vulkan::device_target_json(device == "h200" ? vulkan::h200_caps() : vulkan::lavapipe_caps()).c_str());
    return 0;
  }
  if (argc < 3) return usage();
  std::ifstream f(argv[1]);
  if (!f) return std::fprintf(stderr, "cannot read %s\n", argv[1]), 2;
  std::stringstream ss;
  ss << f.rdbuf();
  std::string device = argv[2];
  if (device != "h200" && device != "lavapipe") return usage();
  ir::LowerOptions o;
  std::string show = "all", spv_path;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    bool more = i + 1 < argc;
    if (a == "--div" && more) {
      std::string d = argv[++i];
      size_t eq = d.find('=');
      if (eq == std::string::npos) return usage();
      o.divisibility[d.substr(0, eq)] = std::atoll(d.c_str() + eq + 1);
    } else if (a == "--show" && more) {
      show = argv[++i];
    } else if (a == "--aligned") {
      o.tensors_aligned = true;
    } else if (a == "--spv" && more) {
      spv_path = argv[++i];
    } else {
      return usage();
    }
  }
  vulkan::DeviceCaps caps = device == "h200" ? vulkan::h200_caps() : vulkan::lavapipe_caps();
  auto t = parse_target(vulkan::device_target_json(caps), device);
  if (!t.is_ok()) return std::fprintf(stderr, "%s\n", t.status().str().c_str()), 1;
  auto k = ir::parse_and_verify(ss.str(), argv[1]);
  if (!k.is_ok()) return std::fprintf(stderr, "%s\n", k.status().str().c_str()), 1;
  auto lowered = ir::lower(*k, *t, o);
  if (!lowered.is_ok()) return std::fprintf(stderr, "%s\n", lowered.status().str().c_str()), 1;
  std::string text = ir::print_kernel(lowered->kernel);
  if (show == "lowered" || show == "all") std::printf("%s\n", text.c_str());
  auto read_back = ir::read_lowered(text);
  if (!read_back.is_ok()) return std::fprintf(stderr, "%s\n", read_back.status().str().c_str()), 1;
  auto ct = vulkan::codegen_target(*t);
  if (!ct.is_ok()) return std::fprintf(stderr, "%s\n", ct.status().str().c_str()), 1;
  auto g = vulkan::generate_shader(*read_back, *ct);
  if (!g.is_ok()) return std::fprintf(stderr, "%s\n", g.status().str().c_str()), 1;
  if (show == "spirv" || show == "all") {
    std::printf("%s\n", vulkan::spirv_text(g->words).c_str());
  }
  if (!spv_path.empty()) {
    std::ofstream out(spv_path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(g->words.data()), std::streamsize(g->words.size() * 4));
  }
  std::fprintf(stderr, "ok: %zu words of SPIR-V, %u bytes of shared memory, workgroup %u\n", g->words.size(), g->iface.shared_bytes,
               g->iface.workgroup_size);
  return 0;
}
