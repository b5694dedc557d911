/// \file
/// The SPIR-V numbers the Vulkan backend emits: opcodes, enumerants and GLSL.std.450
/// instruction numbers, from the SPIR-V 1.6 unified specification, the GLSL.std.450
/// extended instruction set and SPV_KHR_cooperative_matrix. Only what the generator uses;
/// the values were checked against spirv-as (SPIRV-Tools 2023.1) where it knows them.
#pragma once

#include <cstdint>

namespace tegula::vulkan::spv {

inline constexpr uint32_t kMagic = 0x07230203;
inline constexpr uint32_t kGenerator = 0;  // no registered generator id

enum Op : uint16_t {
  OpNop = 0, OpUndef = 1, OpName = 5, OpMemberName = 6, OpExtension = 10, OpExtInstImport = 11,
  OpExtInst = 12, OpMemoryModel = 14, OpEntryPoint = 15, OpExecutionMode = 16, OpCapability = 17,
  OpTypeVoid = 19, OpTypeBool = 20, OpTypeInt = 21, OpTypeFloat = 22, OpTypeVector = 23,
  OpTypeArray = 28, OpTypeRuntimeArray = 29, OpTypeStruct = 30, OpTypePointer = 32,
  OpTypeFunction = 33, OpConstantTrue = 41, OpConstantFalse = 42, OpConstant = 43,
  OpConstantComposite = 44, OpConstantNull = 46, OpFunction = 54, OpFunctionParameter = 55,
  OpFunctionEnd = 56, OpFunctionCall = 57, OpVariable = 59, OpLoad = 61, OpStore = 62,
  OpAccessChain = 65, OpDecorate = 71, OpMemberDecorate = 72, OpCompositeConstruct = 80,
  OpCompositeExtract = 81, OpConvertFToU = 109, OpConvertFToS = 110, OpConvertSToF = 111,
  OpConvertUToF = 112, OpUConvert = 113, OpSConvert = 114, OpFConvert = 115, OpBitcast = 124,
  OpSNegate = 126, OpFNegate = 127, OpIAdd = 128, OpFAdd = 129, OpISub = 130, OpFSub = 131,
  OpIMul = 132, OpFMul = 133, OpUDiv = 134, OpSDiv = 135, OpFDiv = 136, OpUMod = 137,
  OpSRem = 138, OpSMulExtended = 152, OpIsNan = 156, OpIsInf = 157, OpLogicalEqual = 164, OpLogicalNotEqual = 165,
  OpLogicalOr = 166, OpLogicalAnd = 167, OpLogicalNot = 168, OpSelect = 169, OpIEqual = 170,
  OpINotEqual = 171, OpUGreaterThan = 172, OpSGreaterThan = 173, OpUGreaterThanEqual = 174,
  OpSGreaterThanEqual = 175, OpULessThan = 176, OpSLessThan = 177, OpULessThanEqual = 178,
  OpSLessThanEqual = 179, OpFOrdEqual = 180, OpFUnordNotEqual = 183, OpFOrdLessThan = 184,
  OpFOrdGreaterThan = 186, OpFOrdLessThanEqual = 188, OpFOrdGreaterThanEqual = 190,
  OpShiftRightLogical = 194, OpShiftRightArithmetic = 195, OpShiftLeftLogical = 196,
  OpBitwiseOr = 197, OpBitwiseXor = 198, OpBitwiseAnd = 199, OpNot = 200,
  OpControlBarrier = 224, OpMemoryBarrier = 225, OpAtomicLoad = 227, OpAtomicStore = 228,
  OpAtomicCompareExchange = 230, OpAtomicIAdd = 234, OpLoopMerge = 246, OpSelectionMerge = 247,
  OpLabel = 248, OpBranch = 249, OpBranchConditional = 250, OpReturn = 253, OpReturnValue = 254,
  OpGroupNonUniformShuffleXor = 346, OpAtomicFAddEXT = 6035,
  OpTypeCooperativeMatrixKHR = 4456, OpCooperativeMatrixLoadKHR = 4457,
  OpCooperativeMatrixStoreKHR = 4458, OpCooperativeMatrixMulAddKHR = 4459,
  OpCooperativeMatrixLengthKHR = 4460,
  // SPV_NV_cooperative_matrix2 and SPV_NV_tensor_addressing
  OpCooperativeMatrixLoadTensorNV = 5367, OpCooperativeMatrixStoreTensorNV = 5368, OpTypeTensorLayoutNV = 5370,
  OpTypeTensorViewNV = 5371, OpCreateTensorLayoutNV = 5372, OpTensorLayoutSetDimensionNV = 5373,
  OpTensorLayoutSetStrideNV = 5374, OpTensorLayoutSliceNV = 5375, OpCreateTensorViewNV = 5377,
};

enum TensorAddressingOperand : uint32_t { TensorAddressingView = 0x1 };

enum Capability : uint32_t {
  CapShader = 1, CapFloat16 = 9, CapFloat64 = 10, CapInt64 = 11, CapInt64Atomics = 12,
  CapInt16 = 22, CapInt8 = 39, CapGroupNonUniform = 61, CapGroupNonUniformShuffle = 65,
  CapStorageBuffer16BitAccess = 4433, CapStorageBuffer8BitAccess = 4448,
  CapVulkanMemoryModel = 5345, CapVulkanMemoryModelDeviceScope = 5346, CapAtomicFloat32AddEXT = 6033, CapAtomicFloat64AddEXT = 6034,
  CapCooperativeMatrixKHR = 6022, CapDenormPreserve = 4464, CapSignedZeroInfNanPreserve = 4466,
  CapCooperativeMatrixTensorAddressingNV = 5433, CapTensorAddressingNV = 5439,
};

enum StorageClass : uint32_t {
  SCInput = 1, SCWorkgroup = 4, SCPrivate = 6, SCFunction = 7, SCPushConstant = 9, SCStorageBuffer = 12,
};

enum Decoration : uint32_t {
  DecBlock = 2, DecArrayStride = 6, DecBuiltIn = 11, DecNonWritable = 24, DecBinding = 33,
  DecNoContraction = 42,
  DecDescriptorSet = 34, DecOffset = 35,
};

enum BuiltIn : uint32_t {
  BuiltInWorkgroupId = 26, BuiltInLocalInvocationIndex = 29, BuiltInSubgroupLocalInvocationId = 41,
};

enum Scope : uint32_t { ScopeDevice = 1, ScopeWorkgroup = 2, ScopeSubgroup = 3, ScopeInvocation = 4, ScopeQueueFamily = 5 };

enum MemorySemantics : uint32_t {
  SemNone = 0, SemAcquireRelease = 0x8, SemUniformMemory = 0x40, SemWorkgroupMemory = 0x100,
  SemMakeAvailable = 0x2000, SemMakeVisible = 0x4000,
};

enum ExecutionModel : uint32_t { ModelGLCompute = 5 };
enum ExecutionMode : uint32_t { ModeLocalSize = 17, ModeDenormPreserve = 4459, ModeSignedZeroInfNanPreserve = 4461 };
enum AddressingModel : uint32_t { AddressingLogical = 0 };
enum MemoryModel : uint32_t { MemoryModelGLSL450 = 1, MemoryModelVulkan = 3 };
enum FunctionControl : uint32_t { FunctionControlNone = 0 };
enum SelectionControl : uint32_t { SelectionControlNone = 0 };
/// Memory operands (loads, stores, cooperative-matrix loads and stores).
enum MemoryAccess : uint32_t { AccessNonPrivatePointer = 0x20 };
enum LoopControl : uint32_t { LoopControlNone = 0, LoopControlUnroll = 1, LoopControlDontUnroll = 2 };

/// Cooperative-matrix operands (SPV_KHR_cooperative_matrix).
enum CoopUse : uint32_t { CoopUseA = 0, CoopUseB = 1, CoopUseAccumulator = 2 };
enum CoopLayout : uint32_t { CoopRowMajor = 0, CoopColumnMajor = 1 };
enum CoopOperands : uint32_t {
  CoopOperandsNone = 0, CoopASigned = 0x1, CoopBSigned = 0x2, CoopCSigned = 0x4, CoopResultSigned = 0x8,
};

/// GLSL.std.450 extended instructions.
enum Glsl : uint32_t {
  GlslRoundEven = 2, GlslTrunc = 3, GlslFAbs = 4, GlslSAbs = 5, GlslFloor = 8, GlslTanh = 21,
  GlslExp = 27, GlslLog = 28, GlslExp2 = 29, GlslSqrt = 31, GlslInverseSqrt = 32, GlslFMin = 37,
  GlslUMin = 38, GlslSMin = 39, GlslFMax = 40, GlslUMax = 41, GlslSMax = 42, GlslFClamp = 43,
  GlslSClamp = 45, GlslFma = 50, GlslPackHalf2x16 = 58, GlslUnpackHalf2x16 = 62, GlslNMin = 79,
  GlslNMax = 80,
};

}  // namespace tegula::vulkan::spv
