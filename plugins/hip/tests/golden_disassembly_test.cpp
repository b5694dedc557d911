// The code objects of three small kernels (golden/*.tile: a masked copy, an MFMA gemm, a row
// sum across waves), disassembled by llvm-objdump-19 --mcpu=gfx942, are the ones kept in
// golden/*.s: a change in what the backend emits shows up here as a diff to read
// (TEGULA_UPDATE_GOLDEN=1 rewrites the files). The disassembler also proves each code object
// is a well-formed gfx942 ELF. Skipped (with a message) without llvm-objdump-19.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "plugins/hip/tests/HipTest.h"

namespace golden_disassembly_test {

using namespace tegula;
using namespace tegula::hip::testing;

namespace {

const char* kObjdump = "/usr/bin/llvm-objdump-19";

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

/// The disassembly without the line naming the temporary file.
std::string normalise(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line))
    if (line.find("file format") == std::string::npos && !line.empty()) out += line + "\n";
  return out;
}

}  // namespace

/// The disassembly of golden/NAME.tile's code object for gfx942.
std::string disassembly(const std::string& dir, const std::string& name) {
  auto src = read_file(dir + name + ".tile");
  REQUIRE_MESSAGE(src.is_ok(), src.status().str());
  auto blob = compile_for(*src);
  REQUIRE_MESSAGE(blob.is_ok(), blob.status().str());
  auto exe = hip::decode_executable(blob->data(), blob->size());
  REQUIRE_MESSAGE(exe.is_ok(), exe.status().str());
  char path[] = "/tmp/tegula-hip-golden-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, exe->code_object.data(), exe->code_object.size()) == ssize_t(exe->code_object.size()));
  close(fd);
  std::string text = normalise(run(std::string(kObjdump) + " -d --mcpu=gfx942 --no-show-raw-insn '" + path + "' 2>&1"));
  unlink(path);
  return text;
}

TEST_CASE("the golden kernels disassemble to golden/*.s") {
  if (access(kObjdump, X_OK) != 0) {
    MESSAGE("skipped: " << kObjdump << " is not installed (Debian's llvm-19)");
    return;
  }
  const struct {
    const char* name;
    std::vector<std::string> needles;  ///< what the kernel cannot do without
  } kernels[] = {
      {"copy_f32", {"global_load_dword", "global_store_dword"}},
      {"gemm_bf16_mfma", {"v_mfma_f32_32x32x8_bf16", "ds_read", "ds_write", "s_barrier"}},
      {"row_sum_f32", {"ds_bpermute_b32", "s_barrier"}},
  };
  std::string dir = std::string(TEGULA_SOURCE_DIR) + "/plugins/hip/tests/golden/";
  const char* update = std::getenv("TEGULA_UPDATE_GOLDEN");
  for (const auto& k : kernels) {
    std::string name = k.name;
    CAPTURE(name);
    std::string text = disassembly(dir, name);
    CHECK(text.find("s_endpgm") != std::string::npos);
    CHECK(text.find("scratch_") == std::string::npos);  // no spills to private memory
    for (const std::string& n : k.needles) CHECK_MESSAGE(text.find(n) != std::string::npos, n);
    if (update && std::string(update) == "1") {
      std::ofstream(dir + name + ".s") << text;
      MESSAGE("rewrote golden/" << name << ".s");
      continue;
    }
    auto golden = read_file(dir + name + ".s");
    REQUIRE_MESSAGE(golden.is_ok(), golden.status().str());
    CHECK(text == *golden);
  }
}

}  // namespace golden_disassembly_test
