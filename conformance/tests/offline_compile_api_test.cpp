// The runtime's tool entries (tegula_plugin_compile_offline, tegula_plugin_describe_executable)
// reach a plugin's optional compile_offline and executable_describe: Unimplemented where the
// plugin lacks them, the plugin's refusal for a target it does not take, and the described
// code of a kernel lowered for the named target.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"
#include "targets/Target.h"
#include "tegula/tegula.hpp"

namespace offline_compile_api_test {

using namespace tegula;
using namespace tegula::conformance::testing;

namespace {

const char* kGemm =
    "kernel g(A: bf16[64, 32], B: bf16[24, 32], C: f32[64, 24]) grid(1) threads(128) {\n"
    "  alloc As: shared bf16[64, 32]\n  alloc Bs: shared bf16[24, 32]\n  alloc Acc: fragment f32[64, 24]\n"
    "  copy A, As\n  copy B, Bs\n  fill Acc, 0.0\n"
    "  gemm As, Bs, Acc, accumulate=true, trans_b=true, inst=\"wgmma.m64nNk16.bf16_f32\"\n  copy Acc, C\n}\n";

Runtime open(const std::string& plugin) {
  RuntimeOptions o;
  o.manifest_paths = std::vector<std::string>{manifest(plugin)};
  o.ignore_environment = true;
  o.cache_dir = "off";
  auto rt = Runtime::open(o);
  REQUIRE(rt.is_ok());
  return std::move(rt).value();
}

}  // namespace

TEST_CASE("a plugin without compile_offline answers Unimplemented") {
  Runtime rt = open("conformance_wrong");
  auto exe = rt.compile_offline("conformance_wrong", "sm_90a", kGemm);
  REQUIRE_FALSE(exe.is_ok());
  CHECK(exe.status().code() == ErrorCode::Unimplemented);
  auto text = rt.describe_executable("conformance_wrong", "bytes");
  CHECK(text.status().code() == ErrorCode::Unimplemented);
  CHECK(rt.compile_offline("nonexistent", "sm_90a", kGemm).status().code() == ErrorCode::NotFound);
}

TEST_CASE("offline compilation lowers for the named target and the plugin describes the code") {
  Runtime rt = open("conformance_offline");
  auto exe = rt.compile_offline("conformance_offline", "sm_90a", kGemm);
  REQUIRE_MESSAGE(exe.is_ok(), exe.status().str());
  auto text = rt.describe_executable("conformance_offline", *exe);
  REQUIRE(text.is_ok());
  CHECK(text->find("wgmma.mma_async.sync.aligned.m64n24k16.f32.bf16.bf16") != std::string::npos);
  // A description given as JSON works like a built-in name.
  auto target = builtin_target("sm_90a");
  REQUIRE(target.is_ok());
  CHECK(rt.compile_offline("conformance_offline", target->canonical_json, kGemm).is_ok());
  // The plugin's refusal comes through; so do errors of the IR and of the lowering.
  CHECK(rt.compile_offline("conformance_offline", "gfx942", kGemm).status().code() == ErrorCode::Unsupported);
  CHECK(rt.compile_offline("conformance_offline", "no_such_target", kGemm).status().code() == ErrorCode::NotFound);
  CHECK(rt.compile_offline("conformance_offline", "sm_90a", "kernel").status().code() == ErrorCode::Parse);
  CHECK(rt.compile_offline("conformance_offline", "sm_80", kGemm).status().code() == ErrorCode::Unsupported);  // no wgmma
  CHECK(rt.describe_executable("conformance_offline", "not an executable").status().code() == ErrorCode::Corrupt);
}

TEST_CASE("the C entries check their arguments") {
  Runtime rt = open("conformance_offline");
  tegula_blob* blob = nullptr;
  tegula_error* e = tegula_plugin_compile_offline(rt.handle(), nullptr, "sm_90a", kGemm, 10, nullptr, &blob);
  CHECK(tegula_error_get_code(e) == TEGULA_ERROR_INVALID_ARGUMENT);
  tegula_error_free(e);
  e = tegula_plugin_describe_executable(rt.handle(), "conformance_offline", nullptr, 5, &blob);
  CHECK(tegula_error_get_code(e) == TEGULA_ERROR_INVALID_ARGUMENT);
  tegula_error_free(e);
  CHECK(tegula_blob_size(nullptr) == 0);
  tegula_blob_free(nullptr);
}

}  // namespace offline_compile_api_test
