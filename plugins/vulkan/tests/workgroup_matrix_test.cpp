// Workgroup-scope matrices (VK_NV_cooperative_matrix2): the device description offers them
// only where the driver reports them, the aligned variant of a plain tiled gemm gets one
// matrix per block loaded with tensor addressing (clamped where the tile may leave the
// tensor), a pipelined loop around it is unrolled by its stages, and misuse is refused.
// The H200 run (bench/h200/run_all.sh) checks the results on the device.
#include "plugins/vulkan/tests/CodegenTestUtil.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "plugins/vulkan/spirv/Spirv.h"

namespace workgroup_matrix_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

namespace {

Result<GeneratedShader> generate_aligned(const std::string& text, const TargetDescription& t) {
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_and_verify(text, "test.tile"));
  ir::LowerOptions o;
  o.tensors_aligned = true;
  TG_ASSIGN_OR_RETURN(ir::LowerResult r, ir::lower(k, t, o));
  TG_ASSIGN_OR_RETURN(ir::Kernel lowered, ir::read_lowered(ir::print_kernel(r.kernel)));
  TG_ASSIGN_OR_RETURN(CodegenTarget ct, codegen_target(t));
  return generate_shader(lowered, ct);
}

/// Instructions of a module: opcode -> operand lists, in order.
std::multimap<uint32_t, std::vector<uint32_t>> instructions(const std::vector<uint32_t>& words) {
  std::multimap<uint32_t, std::vector<uint32_t>> out;
  for (size_t i = 5; i < words.size();) {
    uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
    REQUIRE(count >= 1);
    REQUIRE(i + count <= words.size());
    out.insert({op, std::vector<uint32_t>(words.begin() + long(i) + 1, words.begin() + long(i + count))});
    i += count;
  }
  return out;
}

/// The clamp modes (values of the ClampMode constants) of the module's tensor layout types.
std::vector<uint32_t> clamp_modes(const std::vector<uint32_t>& words) {
  auto ins = instructions(words);
  std::map<uint32_t, uint32_t> constants;  // id -> value
  auto range = ins.equal_range(spv::OpConstant);
  for (auto it = range.first; it != range.second; ++it)
    if (it->second.size() == 3) constants[it->second[1]] = it->second[2];
  std::vector<uint32_t> out;
  range = ins.equal_range(spv::OpTypeTensorLayoutNV);
  for (auto it = range.first; it != range.second; ++it) out.push_back(constants.at(it->second[2]));
  return out;
}

std::string gemm_kernel(const std::string& shape, int64_t bm, int64_t bn, int64_t bk, int64_t threads, int64_t stages) {
  auto s = [](int64_t v) { return std::to_string(v); };
  return "kernel g(A: f16[" + shape + "M, K], B: f16[K, N], C: f16[M, N]) grid(ceildiv(N, " + s(bn) + "), ceildiv(M, " + s(bm) +
         ")) threads(" + s(threads) + ") {\n  alloc As: shared f16[" + s(bm) + ", " + s(bk) + "]\n  alloc Bs: shared f16[" + s(bk) +
         ", " + s(bn) + "]\n  alloc Acc: fragment f32[" + s(bm) + ", " + s(bn) + "]\n  fill Acc, 0.0\n  pipelined k in 0 .. ceildiv(K, " +
         s(bk) + "), stages=" + s(stages) + " {\n    copy A[by * " + s(bm) + ", k * " + s(bk) + "], As\n    copy B[k * " + s(bk) +
         ", bx * " + s(bn) + "], Bs\n    gemm As, Bs, Acc, accumulate=true\n  }\n  copy Acc, C[by * " + s(bm) + ", bx * " + s(bn) +
         "]\n}\n";
}

}  // namespace

TEST_CASE("workgroup matrices are described only where the driver reports them") {
  std::string h200 = device_target_json(h200_caps());
  for (const char* id : {"coopmat.wg32.f16_f32", "coopmat.wg64.f16_f16", "coopmat.wg128.f16_f32", "coopmat.wg256.f16_f32"})
    CHECK_MESSAGE(h200.find(std::string("\"") + id + "\"") != std::string::npos, id);
  CHECK(h200.find("workgroup_matrix_shared=8192") != std::string::npos);
  TargetDescription t = describe(h200_caps());
  const MatrixInstruction* wg = nullptr;
  for (const MatrixInstruction& mi : t.matrix_instructions)
    if (mi.id == "coopmat.wg256.f16_f32") wg = &mi;
  REQUIRE(wg);
  CHECK(wg->scope == GroupScope::Cta);
  CHECK(wg->group_threads == 256);
  CHECK(wg->a.allows(OperandLocation::Global));
  // 128 accumulator values per invocation at most, K steps up to 64.
  CHECK(wg->m.to_string() == "32..128/32");
  CHECK(wg->n.to_string() == "32..256/32");
  CHECK(wg->k.to_string() == "16..64/16");
  for (const MatrixInstruction& mi : t.matrix_instructions) {
    if (mi.scope != GroupScope::Cta) continue;
    CAPTURE(mi.id);
    CHECK(int64_t(mi.m.values().back()) * mi.n.values().back() <= 128 * mi.group_threads);
  }
  // Integer and bf16 workgroup entries are not offered (the lowering stores f16 or f32).
  CHECK(h200.find("coopmat.wg256.i8") == std::string::npos);
  // Without tensor addressing, or on lavapipe, there are none.
  DeviceCaps no_tensor = h200_caps();
  no_tensor.coopmat_tensor_addressing = false;
  CHECK(device_target_json(no_tensor).find("coopmat.wg") == std::string::npos);
  CHECK(device_target_json(lavapipe_caps()).find("coopmat.wg") == std::string::npos);
}

TEST_CASE("an aligned tiled gemm gets one workgroup matrix, loaded and stored through tensor layouts") {
  TargetDescription t = describe(h200_caps());
  auto shader = generate_aligned(gemm_kernel("", 128, 256, 32, 256, 1), t);
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  CHECK(shader->iface.spirv_version == 0x00010600);
  CHECK(shader->iface.shared_bytes == 0);
  auto ins = instructions(shader->words);
  CHECK(ins.count(spv::OpCooperativeMatrixLoadTensorNV) == 2);
  CHECK(ins.count(spv::OpCooperativeMatrixStoreTensorNV) == 1);
  CHECK(ins.count(spv::OpCooperativeMatrixMulAddKHR) == 1);
  CHECK(ins.count(spv::OpControlBarrier) == 0);
  // Every matrix type has Workgroup scope (the Scope operand is a constant 2).
  std::map<uint32_t, uint32_t> constants;
  auto cr = ins.equal_range(spv::OpConstant);
  for (auto it = cr.first; it != cr.second; ++it) constants[it->second[1]] = it->second[2];
  auto types = ins.equal_range(spv::OpTypeCooperativeMatrixKHR);
  REQUIRE(types.first != types.second);
  for (auto it = types.first; it != types.second; ++it) CHECK(constants.at(it->second[2]) == spv::ScopeWorkgroup);
  // Shapes with symbolic sizes: the tiles may leave the tensors, so loads clamp (mode 1).
  for (uint32_t mode : clamp_modes(shader->words)) CHECK(mode == 1);
  std::string verdict = spirv_val(shader->words);
  if (verdict != "skip") CHECK_MESSAGE(verdict.empty(), verdict);
}

TEST_CASE("tiles proven inside static tensors need no clamping") {
  TargetDescription t = describe(h200_caps());
  std::string text = gemm_kernel("", 128, 128, 32, 256, 1);
  for (auto [from, to] : {std::pair<std::string, std::string>{"f16[M, K]", "f16[512, 256]"}, {"f16[K, N]", "f16[256, 384]"},
                          {"f16[M, N]", "f16[512, 384]"}, {"ceildiv(N, 128)", "3"}, {"ceildiv(M, 128)", "4"}, {"ceildiv(K, 32)", "8"}})
    text.replace(text.find(from), from.size(), to);
  auto shader = generate_aligned(text, t);
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  std::vector<uint32_t> modes = clamp_modes(shader->words);
  REQUIRE_FALSE(modes.empty());
  for (uint32_t mode : modes) CHECK(mode == 0);
}

TEST_CASE("a pipelined loop around a workgroup matrix is unrolled by its stages") {
  TargetDescription t = describe(h200_caps());
  auto one = generate_aligned(gemm_kernel("", 128, 128, 32, 256, 1), t);
  auto four = generate_aligned(gemm_kernel("", 128, 128, 32, 256, 4), t);
  REQUIRE_MESSAGE(one.is_ok(), one.status().str());
  REQUIRE_MESSAGE(four.is_ok(), four.status().str());
  // Four copies of the step in the unrolled loop, one in the loop for what is left over.
  CHECK(instructions(one->words).count(spv::OpCooperativeMatrixMulAddKHR) == 1);
  CHECK(instructions(four->words).count(spv::OpCooperativeMatrixMulAddKHR) == 5);
}

TEST_CASE("the variant for unaligned tensors keeps subgroup matrices") {
  TargetDescription t = describe(h200_caps());
  auto shader = generate_for(gemm_kernel("", 128, 128, 32, 256, 1), t);
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  CHECK(shader->iface.spirv_version < 0x00010600);
  CHECK(instructions(shader->words).count(spv::OpCooperativeMatrixLoadTensorNV) == 0);
  CHECK(instructions(shader->words).count(spv::OpCooperativeMatrixMulAddKHR) > 0);
}

TEST_CASE("misuse: forwarding marks that do not agree, and shared memory the driver's staging needs") {
  TargetDescription t = describe(h200_caps());
  auto k = ir::parse_and_verify(gemm_kernel("", 128, 128, 32, 256, 1), "test.tile");
  REQUIRE(k.is_ok());
  ir::LowerOptions o;
  o.tensors_aligned = true;
  auto r = ir::lower(*k, t, o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  auto ct = codegen_target(t);
  REQUIRE(ct.is_ok());
  std::string text = ir::print_kernel(r->kernel);
  // A copy marked forwarded into a tile that is declared.
  std::string forged = text;
  const std::string mark = ", layout.forwarded=true";
  REQUIRE(forged.find(mark) != std::string::npos);
  forged.erase(forged.find(mark), mark.size());
  // Both are refused by the reader every backend uses, before any code is generated.
  auto lowered = ir::read_lowered(forged, t);
  REQUIRE_FALSE(lowered.is_ok());
  CHECK_MESSAGE(lowered.status().message().find("plan.forward on a copy into 'As', which is not forwarded") != std::string::npos,
                lowered.status().message());
  // A forwarded tile (no storage) that a copy without plan.forward writes.
  std::string unmarked = text;
  REQUIRE(unmarked.find(", plan.forward=a") != std::string::npos);
  unmarked.erase(unmarked.find(", plan.forward=a"), 16);
  auto refused = ir::read_lowered(unmarked, t);
  REQUIRE_FALSE(refused.is_ok());
  CHECK_MESSAGE(refused.status().message().find("forwarded tile 'As' (layout.forwarded) is used by an op that does not load it") !=
                    std::string::npos,
                refused.status().message());
  // 42000 bytes of other shared memory leave too little beside the 8192 the driver keeps:
  // the lowering refuses it (the instruction's shared_reserve), before any backend sees it.
  std::string big = gemm_kernel("", 128, 128, 32, 256, 1);
  big.replace(big.find("C: f16[M, N]"), 12, "C: f16[M, N], D: f32[10500]");
  big.replace(big.find("  fill Acc"), 0, "  alloc X: shared f32[10500]\n  fill X, 1.0\n  copy X, D\n");
  auto wide = generate_aligned(big, t);
  REQUIRE_FALSE(wide.is_ok());
  CHECK(wide.status().code() == ErrorCode::Unsupported);
  CHECK_MESSAGE(wide.status().message().find("offers 40960 per block beside what its instruction coopmat.wg") != std::string::npos,
                wide.status().message());
}

TEST_CASE("a transposed operand loads through a tensor view that swaps its coordinates") {
  TargetDescription t = describe(h200_caps());
  std::string text = gemm_kernel("", 128, 256, 32, 256, 1);
  for (auto [from, to] : {std::pair<std::string, std::string>{"B: f16[K, N]", "B: f16[N, K]"}, {"Bs: shared f16[32, 256]", "Bs: shared f16[256, 32]"},
                          {"copy B[k * 32, bx * 256]", "copy B[bx * 256, k * 32]"}, {"accumulate=true", "accumulate=true, trans_b=true"}})
    text.replace(text.find(from), from.size(), to);
  auto shader = generate_aligned(text, t);
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  auto ins = instructions(shader->words);
  CHECK(ins.count(spv::OpTypeTensorViewNV) == 1);
  CHECK(ins.count(spv::OpCreateTensorViewNV) == 1);
  // A loads without a view (5 operands after the result), B with one (TensorView and its id).
  std::vector<size_t> sizes;
  auto loads = ins.equal_range(spv::OpCooperativeMatrixLoadTensorNV);
  for (auto it = loads.first; it != loads.second; ++it) sizes.push_back(it->second.size());
  std::sort(sizes.begin(), sizes.end());
  CHECK(sizes == std::vector<size_t>{7, 8});
}

TEST_CASE("an epilogue map over a workgroup matrix is matrix arithmetic, each step uncontracted") {
  TargetDescription t = describe(h200_caps());
  std::string text = gemm_kernel("", 128, 256, 32, 256, 1);
  text.replace(text.find("C: f16[M, N])"), 13, "C: f16[M, N], alpha: f32)");
  text.replace(text.find("  copy Acc, C"), 0, "  map Acc = Acc * alpha + 0.5\n");
  auto shader = generate_aligned(text, t);
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  auto ins = instructions(shader->words);
  CHECK(ins.count(spv::OpCooperativeMatrixLoadTensorNV) == 2);  // still workgroup matrices
  // The matrix's type id, then: its OpFMul and OpFAdd, both decorated NoContraction.
  std::map<uint32_t, uint32_t> result_type;  // result id -> type id
  std::set<uint32_t> matrix_types, uncontracted;
  auto types = ins.equal_range(spv::OpTypeCooperativeMatrixKHR);
  for (auto it = types.first; it != types.second; ++it) matrix_types.insert(it->second[0]);
  auto decorations = ins.equal_range(spv::OpDecorate);
  for (auto it = decorations.first; it != decorations.second; ++it)
    if (it->second.size() >= 2 && it->second[1] == spv::DecNoContraction) uncontracted.insert(it->second[0]);
  int matrix_ops = 0;
  for (spv::Op op : {spv::OpFMul, spv::OpFAdd}) {
    auto r = ins.equal_range(op);
    for (auto it = r.first; it != r.second; ++it) {
      if (!matrix_types.count(it->second[0])) continue;
      ++matrix_ops;
      CHECK(uncontracted.count(it->second[1]));
    }
  }
  CHECK(matrix_ops == 2);
}

}  // namespace workgroup_matrix_test
