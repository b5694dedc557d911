// tegula run on the user's own data: --input / --output with .npy and raw .bin files,
// checked against the kernel's signature (dtype, rank, fixed dimensions, shape symbols a
// file fixes), outputs written atomically and readable back, --print, float scalars.
#include <doctest/doctest.h>

#include <cstring>

#include "core/Npy.h"
#include "runtime/tests/CliSupport.h"

namespace cli_run_files_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

/// Y = X * a + b (TestSupport's axpb), in a file.
std::string axpb_file(const std::string& dir) {
  std::string path = dir + "/axpb.tile";
  REQUIRE(write_file_atomic(path, axpb_ir()).is_ok());
  return path;
}

std::string f32_npy(const std::vector<float>& values, std::vector<int64_t> shape = {}) {
  if (shape.empty()) shape = {int64_t(values.size())};
  return format_npy("<f4", shape, std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
}

std::vector<float> read_f32_npy(const std::string& path) {
  auto bytes = read_file(path);
  REQUIRE(bytes.is_ok());
  auto a = parse_npy(*bytes, path);
  REQUIRE_MESSAGE(a.is_ok(), a.status().message());
  REQUIRE(a->descr == "<f4");
  std::vector<float> out(size_t(a->numel()));
  std::memcpy(out.data(), a->data.data(), a->data.size());
  return out;
}

}  // namespace

TEST_CASE("a .npy input fixes N, float scalars are taken, the output is written and printed") {
  std::string dir = scratch_dir("cli_run_files");
  std::string kernel = axpb_file(dir);
  std::vector<float> x = {0, 1, 2, 3, 4, -1.5f, 100, 0.25f};
  REQUIRE(write_file_atomic(dir + "/x.npy", f32_npy(x)).is_ok());
  int rc = -1;
  std::string out = tegula_cli("run " + kernel + " --input X=" + dir + "/x.npy --output Y=" + dir +
                                   "/y.npy --bind a=2.5,b=-1 --print",
                               &rc);
  CHECK_MESSAGE(rc == 0, out);
  std::vector<float> y = read_f32_npy(dir + "/y.npy");
  REQUIRE(y.size() == x.size());
  for (size_t i = 0; i < x.size(); ++i) CHECK(y[i] == x[i] * 2.5f - 1);
  CHECK(out.find("Y: f32(8,) = [-1.0, 1.5, 4.0, 6.5, 9.0, -4.75, 249.0, -0.375]") != std::string::npos);
  CHECK(out.find("no direct computation to compare with") != std::string::npos);
  // Nothing half-written beside it.
  std::string listing;
  run_command("ls " + dir, &listing);
  CHECK(listing == "axpb.tile\nx.npy\ny.npy\n");
}

TEST_CASE("raw .bin files: the size must match the signature's") {
  std::string dir = scratch_dir("cli_run_bin");
  std::string kernel = axpb_file(dir);
  std::vector<float> x = {1, 2, 3, 4};
  REQUIRE(write_file_atomic(dir + "/x.bin", std::string(reinterpret_cast<const char*>(x.data()), 16)).is_ok());
  int rc = -1;
  std::string out = tegula_cli("run " + kernel + " --input X=" + dir + "/x.bin --output Y=" + dir +
                                   "/y.bin --bind N=4,a=1,b=0.5",
                               &rc);
  CHECK_MESSAGE(rc == 0, out);
  auto y = read_file(dir + "/y.bin");
  REQUIRE(y.is_ok());
  REQUIRE(y->size() == 16);
  float y3 = 0;
  std::memcpy(&y3, y->data() + 12, 4);
  CHECK(y3 == 4.5f);
  out = tegula_cli("run " + kernel + " --input X=" + dir + "/x.bin --bind N=5", &rc);
  CHECK(rc == 1);
  CHECK(out.find(dir + "/x.bin: 16 bytes but X (f32(5,)) needs 20") != std::string::npos);
}

TEST_CASE("misuse: dtype, rank, fixed dimension and symbol conflicts are refused before any run") {
  std::string dir = scratch_dir("cli_run_files_misuse");
  std::string kernel = axpb_file(dir);
  REQUIRE(write_file_atomic(dir + "/f64.npy", format_npy("<f8", {2}, std::string(16, '\0'))).is_ok());
  REQUIRE(write_file_atomic(dir + "/m.npy", f32_npy({1, 2, 3, 4}, {2, 2})).is_ok());
  REQUIRE(write_file_atomic(dir + "/x4.npy", f32_npy({1, 2, 3, 4})).is_ok());
  REQUIRE(write_file_atomic(dir + "/bad.npy", std::string("\x93NUMPY\x01\x00\x05\x00{bad}", 15)).is_ok());
  int rc = -1;
  std::string out = tegula_cli("run " + kernel + " --input X=" + dir + "/f64.npy", &rc);
  CHECK(rc == 1);
  CHECK(out.find(dir + "/f64.npy: dtype '<f8' but X is f32 (a .npy of '<f4')") != std::string::npos);
  out = tegula_cli("run " + kernel + " --input X=" + dir + "/m.npy", &rc);
  CHECK(rc == 1);
  CHECK(out.find(dir + "/m.npy: shape (2, 2) has 2 dimensions but X is f32[N]") != std::string::npos);
  out = tegula_cli("run " + kernel + " --input X=" + dir + "/x4.npy --bind N=8", &rc);
  CHECK(rc == 1);
  CHECK(out.find("shape (4,) makes N = 4 but it is 8") != std::string::npos);
  out = tegula_cli("run " + kernel + " --input X=" + dir + "/bad.npy", &rc);
  CHECK(rc == 1);
  CHECK(out.find(dir + "/bad.npy: malformed .npy header") != std::string::npos);
  out = tegula_cli("run " + kernel + " --input W=" + dir + "/x4.npy", &rc);
  CHECK(rc == 1);
  CHECK(out.find("--input: kernel 'axpb' has no tensor 'W' (tensors: X, Y)") != std::string::npos);
  out = tegula_cli("run " + kernel + " --input X=" + dir + "/x4.txt", &rc);
  CHECK(rc == 1);
  CHECK(out.find("must end in .npy (NumPy) or .bin") != std::string::npos);
  out = tegula_cli("run " + kernel + " --input X=" + dir + "/missing.npy", &rc);
  CHECK(rc == 1);
  CHECK(out.find("missing.npy") != std::string::npos);
  out = tegula_cli("run " + kernel + " --bind N=4,a=fast", &rc);
  CHECK(rc == 1);
  CHECK(out.find("scalar a: 'fast' is not a number") != std::string::npos);
}

TEST_CASE("a fixed dimension must match, and bf16 tensors read and write float32 .npy files") {
  std::string dir = scratch_dir("cli_run_files_bf16");
  std::string path = dir + "/scale.tile";
  REQUIRE(write_file_atomic(path, "kernel scale(X: bf16[4, N], Y: bf16[4, N]) grid(1) threads(64) {\n"
                                  "  alloc x: fragment f32[4, 8]\n"
                                  "  copy X[0, 0], x\n"
                                  "  map x = x * 2\n"
                                  "  copy x, Y[0, 0]\n"
                                  "}\n")
              .is_ok());
  std::vector<float> x(32);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i) * 0.5f;
  REQUIRE(write_file_atomic(dir + "/x.npy", f32_npy(x, {4, 8})).is_ok());
  REQUIRE(write_file_atomic(dir + "/x3.npy", f32_npy(std::vector<float>(24), {3, 8})).is_ok());
  int rc = -1;
  std::string out = tegula_cli("run " + path + " --input X=" + dir + "/x.npy --output Y=" + dir + "/y.npy", &rc);
  REQUIRE_MESSAGE(rc == 0, out);
  std::vector<float> y = read_f32_npy(dir + "/y.npy");
  REQUIRE(y.size() == 32);
  for (size_t i = 0; i < 32; ++i) CHECK(y[i] == x[i] * 2);
  out = tegula_cli("run " + path + " --input X=" + dir + "/x3.npy", &rc);
  CHECK(rc == 1);
  CHECK(out.find("shape (3, 8) but X is bf16[4, N] (dimension 0)") != std::string::npos);
}

}  // namespace cli_run_files_test
