// atomic_add compiles for gfx942 into what codegen/Atomic.cpp says: the hardware float adds
// for f32 and f64 (global_atomic_add_f32/f64, hipMalloc memory being coarse-grained), a
// compare-and-swap loop on the element's 32-bit word for f16, bf16 and i32, from a fragment
// or a shared tile, masked at the tensor's edges, with no scratch; a replicated source (a row
// sum every thread holds) adds once per element, from one thread.
#include <regex>
#include <string>

#include "plugins/hip/Compile.h"

#include "plugins/hip/tests/HipTest.h"

namespace atomic_add_compiles_test {

using namespace tegula;
using namespace tegula::hip::testing;

namespace {

int count(const std::string& hay, const std::string& needle) {
  int n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

std::string kernel_into(const std::string& dtype, const std::string& source_scope) {
  return "kernel k(X: f32[M, N], Y: " + dtype + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n  alloc x: " +
         source_scope + " f32[16, 64]\n  copy X[by * 16, bx * 64], x\n  atomic_add x, Y[by * 16, bx * 64]\n}\n";
}

}  // namespace

TEST_CASE("f32 and f64 add with the hardware's atomic float adds, f16, bf16 and i32 by compare-and-swap") {
  for (const char* scope : {"fragment", "shared"})
    for (const char* dt : {"f32", "f64", "f16", "bf16", "i32"}) {
      std::string name = std::string(dt) + " from a " + scope + " tile";
      CAPTURE(name);
      auto text = assembly_for(kernel_into(dt, scope));
      REQUIRE_MESSAGE(text.is_ok(), text.status().str());
      std::string d = dt;
      if (d == "f32" || d == "f64") {
        CHECK(contains(*text, "global_atomic_add_" + d));
        CHECK_FALSE(contains(*text, "global_atomic_cmpswap"));
      } else {
        CHECK(contains(*text, "global_atomic_cmpswap"));
      }
      CHECK(contains(*text, "v_cmp"));  // masked at the tensor's edges
      CHECK(asm_number(*text, ".amdhsa_private_segment_fixed_size ") == 0);
      CHECK(asm_number(*text, ".vgpr_spill_count:") == 0);
    }
}

/// The generated LLVM IR (before optimisation) of `text` for gfx942.
std::string llvm_ir_for(const std::string& text) {
  auto lowered = plugin_testing::lower_source(text, target("gfx942"));
  REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
  auto ir = hip::generate_llvm_ir(*lowered, target("gfx942"));
  REQUIRE_MESSAGE(ir.is_ok(), ir.status().str());
  return *ir;
}

/// Whether the one atomicrmw of `ir` sits behind "thread digit != 0" of a 256-thread
/// replicating factor: `%a = urem i64 %t.., 256` then `%b = icmp ne i64 %a, 0` before it.
bool replica_guarded(const std::string& ir) {
  static const std::regex guard(R"((%[0-9]+) = urem i64 %[0-9a-z.]+, 256\n  %[0-9]+ = icmp ne i64 ([^,]+), 0)");
  size_t atomic = ir.find("atomicrmw");
  for (auto it = std::sregex_iterator(ir.begin(), ir.end(), guard); it != std::sregex_iterator(); ++it)
    if ((*it)[1] == (*it)[2] && size_t(it->position()) < atomic) return true;
  return false;
}

TEST_CASE("a source every thread holds adds once: only the thread whose replica digit is 0 adds") {
  // s is a row sum, replicated over the 256 threads: only one copy may add, else each row
  // would get the sum 256 times. x, distributed over the threads, has no replicas.
  const char* head =
      "kernel k(X: f32[M, 1024], Y: f32[M, 1024], Z: f32[M, 1]) grid(M) threads(256) {\n"
      "  alloc x: fragment f32[1, 1024]\n  alloc s: fragment f32[1, 1]\n  copy X[bx, 0], x\n"
      "  reduce x, s, op=sum, axis=1\n";
  std::string replicated = llvm_ir_for(std::string(head) + "  atomic_add s, Z[bx, 0]\n}\n");
  CHECK(count(replicated, "atomicrmw fadd") == 1);
  CHECK(replica_guarded(replicated));
  std::string spread = llvm_ir_for(std::string(head) + "  atomic_add x, Y[bx, 0]\n}\n");
  CHECK(count(spread, "atomicrmw fadd") == 4);  // 1024 elements over 256 threads
  CHECK_FALSE(replica_guarded(spread));
  auto code = assembly_for(std::string(head) + "  atomic_add s, Z[bx, 0]\n}\n");
  REQUIRE_MESSAGE(code.is_ok(), code.status().str());
  CHECK(count(*code, "global_atomic_add_f32") == 1);
}

}  // namespace atomic_add_compiles_test
