#include "plugins/vulkan/spirv/Listing.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

#include "plugins/vulkan/spirv/Spirv.h"

namespace tegula::vulkan {
namespace {

const char* op_name(uint32_t op) {
  switch (op) {
#define TG_OP_NAME(name) \
  case spv::name: return #name;
    TG_OP_NAME(OpName) TG_OP_NAME(OpExtension) TG_OP_NAME(OpExtInstImport) TG_OP_NAME(OpExtInst) TG_OP_NAME(OpMemoryModel)
    TG_OP_NAME(OpEntryPoint) TG_OP_NAME(OpExecutionMode) TG_OP_NAME(OpCapability) TG_OP_NAME(OpTypeVoid) TG_OP_NAME(OpTypeBool)
    TG_OP_NAME(OpTypeInt) TG_OP_NAME(OpTypeFloat) TG_OP_NAME(OpTypeVector) TG_OP_NAME(OpTypeArray) TG_OP_NAME(OpTypeRuntimeArray)
    TG_OP_NAME(OpTypeStruct) TG_OP_NAME(OpTypePointer) TG_OP_NAME(OpTypeFunction) TG_OP_NAME(OpConstantTrue)
    TG_OP_NAME(OpConstantFalse) TG_OP_NAME(OpConstant) TG_OP_NAME(OpConstantNull) TG_OP_NAME(OpFunction)
    TG_OP_NAME(OpFunctionParameter) TG_OP_NAME(OpFunctionEnd) TG_OP_NAME(OpFunctionCall) TG_OP_NAME(OpVariable) TG_OP_NAME(OpLoad)
    TG_OP_NAME(OpStore) TG_OP_NAME(OpAccessChain) TG_OP_NAME(OpDecorate) TG_OP_NAME(OpMemberDecorate)
    TG_OP_NAME(OpCompositeExtract) TG_OP_NAME(OpConvertFToS) TG_OP_NAME(OpConvertSToF) TG_OP_NAME(OpConvertUToF)
    TG_OP_NAME(OpUConvert) TG_OP_NAME(OpSConvert) TG_OP_NAME(OpFConvert) TG_OP_NAME(OpBitcast) TG_OP_NAME(OpSNegate)
    TG_OP_NAME(OpFNegate) TG_OP_NAME(OpIAdd) TG_OP_NAME(OpFAdd) TG_OP_NAME(OpISub) TG_OP_NAME(OpFSub) TG_OP_NAME(OpIMul)
    TG_OP_NAME(OpFMul) TG_OP_NAME(OpUDiv) TG_OP_NAME(OpSDiv) TG_OP_NAME(OpFDiv) TG_OP_NAME(OpUMod) TG_OP_NAME(OpSRem)
    TG_OP_NAME(OpSMulExtended)
    TG_OP_NAME(OpIsNan) TG_OP_NAME(OpLogicalEqual) TG_OP_NAME(OpLogicalNotEqual) TG_OP_NAME(OpLogicalOr) TG_OP_NAME(OpLogicalAnd)
    TG_OP_NAME(OpLogicalNot) TG_OP_NAME(OpSelect) TG_OP_NAME(OpIEqual) TG_OP_NAME(OpINotEqual) TG_OP_NAME(OpULessThan)
    TG_OP_NAME(OpSLessThan) TG_OP_NAME(OpULessThanEqual) TG_OP_NAME(OpSLessThanEqual) TG_OP_NAME(OpFOrdEqual)
    TG_OP_NAME(OpFUnordNotEqual) TG_OP_NAME(OpFOrdLessThan) TG_OP_NAME(OpFOrdLessThanEqual) TG_OP_NAME(OpShiftRightLogical)
    TG_OP_NAME(OpShiftRightArithmetic) TG_OP_NAME(OpShiftLeftLogical) TG_OP_NAME(OpBitwiseOr) TG_OP_NAME(OpBitwiseXor)
    TG_OP_NAME(OpBitwiseAnd) TG_OP_NAME(OpNot) TG_OP_NAME(OpControlBarrier) TG_OP_NAME(OpAtomicCompareExchange)
    TG_OP_NAME(OpAtomicIAdd) TG_OP_NAME(OpLoopMerge) TG_OP_NAME(OpSelectionMerge) TG_OP_NAME(OpLabel) TG_OP_NAME(OpBranch)
    TG_OP_NAME(OpBranchConditional) TG_OP_NAME(OpReturn) TG_OP_NAME(OpReturnValue) TG_OP_NAME(OpGroupNonUniformShuffleXor)
    TG_OP_NAME(OpAtomicFAddEXT) TG_OP_NAME(OpTypeCooperativeMatrixKHR) TG_OP_NAME(OpCooperativeMatrixLoadKHR)
    TG_OP_NAME(OpCooperativeMatrixStoreKHR) TG_OP_NAME(OpCooperativeMatrixMulAddKHR) TG_OP_NAME(OpCooperativeMatrixLoadTensorNV)
    TG_OP_NAME(OpCooperativeMatrixStoreTensorNV) TG_OP_NAME(OpTypeTensorLayoutNV) TG_OP_NAME(OpCreateTensorLayoutNV)
    TG_OP_NAME(OpTensorLayoutSetDimensionNV) TG_OP_NAME(OpTensorLayoutSetStrideNV) TG_OP_NAME(OpTensorLayoutSliceNV)
    TG_OP_NAME(OpTypeTensorViewNV) TG_OP_NAME(OpCreateTensorViewNV)
#undef TG_OP_NAME
    default: return nullptr;
  }
}

}  // namespace

std::string spirv_listing(const std::vector<uint32_t>& words) {
  std::string out;
  if (words.size() < 5) return "; (no SPIR-V)\n";
  out += "; SPIR-V " + std::to_string((words[1] >> 16) & 0xff) + "." + std::to_string((words[1] >> 8) & 0xff) + ", bound " +
         std::to_string(words[3]) + "\n";
  size_t i = 5;
  while (i < words.size()) {
    uint32_t n = words[i] >> 16, op = words[i] & 0xffff;
    if (n == 0 || i + n > words.size()) {
      out += "; (malformed instruction)\n";
      break;
    }
    const char* name = op_name(op);
    out += name ? name : ("Op" + std::to_string(op)).c_str();
    for (uint32_t k = 1; k < n; ++k) out += " " + std::to_string(words[i + k]);
    out += "\n";
    i += n;
  }
  return out;
}

namespace {

/// spirv-dis over the words, or "" when it cannot be run.
std::string spirv_dis(const std::vector<uint32_t>& words) {
  char path[] = "/tmp/tegula-spirv-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return {};
  size_t bytes = words.size() * 4;
  bool written = write(fd, words.data(), bytes) == ssize_t(bytes);
  close(fd);
  std::string out;
  if (written) {
    std::string cmd = std::string("spirv-dis --no-color '") + path + "' 2>/dev/null";
    if (FILE* p = popen(cmd.c_str(), "r")) {
      char buf[4096];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
      if (pclose(p) != 0) out.clear();
    }
  }
  unlink(path);
  return out;
}

}  // namespace

std::string spirv_text(const std::vector<uint32_t>& words) {
  std::string dis = spirv_dis(words);
  return dis.empty() ? spirv_listing(words) : dis;
}

}  // namespace tegula::vulkan
