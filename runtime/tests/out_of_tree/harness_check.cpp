// A vendor's test of its plugin, built outside the tree against the installed package only
// (tegula::plugin_testing): the plugin library named on the command line, opened through its
// C ABI, runs a kernel that must match the reference interpreter, and an executable of a
// wrong kernel with the same signature that must not. Exit status 0 when both hold.
#include <cstdio>

#include "plugins/support/testing/RunCompare.h"

using namespace tegula;
using namespace tegula::plugin_testing;

namespace {

const char* kScale = R"(
kernel scale(X: f32[N], Y: f32[N]) grid(ceildiv(N, 64)) threads(64) {
  alloc x: fragment f32[64]
  copy X[bx * 64], x
  map x = x * 2.0
  copy x, Y[bx * 64]
}
)";

const char* kWrong = R"(
kernel scale(X: f32[N], Y: f32[N]) grid(ceildiv(N, 64)) threads(64) {
  alloc x: fragment f32[64]
  copy X[bx * 64], x
  map x = x * 3.0
  copy x, Y[bx * 64]
}
)";

int fail(const Status& st) {
  std::fprintf(stderr, "%s\n", st.str().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: harness_check PLUGIN_LIBRARY\n");
    return 2;
  }
  Result<std::unique_ptr<Plugin>> plugin = Plugin::open(argv[1]);
  if (!plugin.is_ok()) return fail(plugin.status());
  Result<std::unique_ptr<Device>> device = (*plugin)->open_device(0);
  if (!device.is_ok()) return fail(device.status());
  Result<TargetDescription> target = resolve_target(**plugin, 0);
  if (!target.is_ok()) return fail(target.status());
  RunSpec spec;
  spec.source = kScale;
  spec.bindings = {{"N", 100}};
  Status good = run_and_compare(**device, *target, spec);
  if (!good.is_ok()) return fail(good);
  Result<std::string> lowered = lower_source(kWrong, *target);
  if (!lowered.is_ok()) return fail(lowered.status());
  Result<std::string> wrong = (*device)->compile(*lowered);
  if (!wrong.is_ok()) return fail(wrong.status());
  spec.executable = *wrong;
  Status bad = run_and_compare(**device, *target, spec);
  if (bad.is_ok()) return fail(error(ErrorCode::Internal, "an executable of a wrong kernel matched the interpreter"));
  std::printf("harness: scale matches the interpreter; the wrong kernel is found: %s\n", bad.message().c_str());
  return 0;
}
