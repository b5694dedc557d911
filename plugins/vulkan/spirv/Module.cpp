#include "plugins/vulkan/spirv/Module.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

namespace tegula::vulkan::spv {

bool is_float(T t) { return t == T::F16 || t == T::F32 || t == T::F64; }
bool is_signed_int(T t) { return t == T::I8 || t == T::I32; }

int bit_width(T t) {
  switch (t) {
    case T::Void: return 0;
    case T::Bool: return 1;
    case T::U8:
    case T::I8: return 8;
    case T::U16:
    case T::F16: return 16;
    case T::U32:
    case T::I32:
    case T::F32: return 32;
    case T::U64:
    case T::F64: return 64;
  }
  return 0;
}

Module::Module() = default;

void Module::put(std::vector<uint32_t>& sec, Op op, const std::vector<uint32_t>& operands) {
  sec.push_back((uint32_t(operands.size() + 1) << 16) | op);
  sec.insert(sec.end(), operands.begin(), operands.end());
}

std::vector<uint32_t> Module::string_words(const std::string& s) {
  std::vector<uint32_t> words((s.size() + 4) / 4, 0);
  std::memcpy(words.data(), s.data(), s.size());
  return words;
}

void Module::capability(Capability c) {
  if (std::find(capability_list_.begin(), capability_list_.end(), uint32_t(c)) != capability_list_.end()) return;
  capability_list_.push_back(c);
  put(capabilities_, OpCapability, {uint32_t(c)});
}

void Module::extension(const std::string& name) {
  if (std::find(extension_list_.begin(), extension_list_.end(), name) != extension_list_.end()) return;
  extension_list_.push_back(name);
  put(extensions_, OpExtension, string_words(name));
}

uint32_t Module::glsl() {
  if (glsl_) return glsl_;
  glsl_ = id();
  std::vector<uint32_t> ops{glsl_};
  for (uint32_t w : string_words("GLSL.std.450")) ops.push_back(w);
  put(imports_, OpExtInstImport, ops);
  return glsl_;
}

void Module::memory_model(AddressingModel a, MemoryModel m) {
  memory_model_.clear();
  put(memory_model_, OpMemoryModel, {uint32_t(a), uint32_t(m)});
}

void Module::entry_point(ExecutionModel model, uint32_t fn, const std::string& name, const std::vector<uint32_t>& interface) {
  entries_.push_back({model, fn, name, interface});
}

void Module::execution_mode(uint32_t fn, ExecutionMode mode, std::initializer_list<uint32_t> literals) {
  std::vector<uint32_t> ops{fn, uint32_t(mode)};
  ops.insert(ops.end(), literals.begin(), literals.end());
  put(modes_, OpExecutionMode, ops);
}

void Module::name(uint32_t target, const std::string& text) {
  std::vector<uint32_t> ops{target};
  for (uint32_t w : string_words(text)) ops.push_back(w);
  put(debug_, OpName, ops);
}

void Module::member_name(uint32_t target, uint32_t member, const std::string& text) {
  std::vector<uint32_t> ops{target, member};
  for (uint32_t w : string_words(text)) ops.push_back(w);
  put(debug_, OpMemberName, ops);
}

void Module::decorate(uint32_t target, Decoration d, std::initializer_list<uint32_t> literals) {
  std::vector<uint32_t> ops{target, uint32_t(d)};
  ops.insert(ops.end(), literals.begin(), literals.end());
  put(annotations_, OpDecorate, ops);
}

void Module::member_decorate(uint32_t target, uint32_t member, Decoration d, std::initializer_list<uint32_t> literals) {
  std::vector<uint32_t> ops{target, member, uint32_t(d)};
  ops.insert(ops.end(), literals.begin(), literals.end());
  put(annotations_, OpMemberDecorate, ops);
}

uint32_t Module::type_key(const std::string& key, Op op, const std::vector<uint32_t>& operands) {
  auto it = types_.find(key);
  if (it != types_.end()) return it->second;
  uint32_t tid = id();
  std::vector<uint32_t> ops{tid};
  ops.insert(ops.end(), operands.begin(), operands.end());
  put(globals_, op, ops);
  types_[key] = tid;
  return tid;
}

uint32_t Module::type(T t) {
  switch (t) {
    case T::Void: return type_key("void", OpTypeVoid, {});
    case T::Bool: return type_key("bool", OpTypeBool, {});
    case T::U8: return type_key("u8", OpTypeInt, {8, 0});
    case T::I8: return type_key("i8", OpTypeInt, {8, 1});
    case T::U16: return type_key("u16", OpTypeInt, {16, 0});
    case T::U32: return type_key("u32", OpTypeInt, {32, 0});
    case T::I32: return type_key("i32", OpTypeInt, {32, 1});
    case T::U64: return type_key("u64", OpTypeInt, {64, 0});
    case T::F16: return type_key("f16", OpTypeFloat, {16});
    case T::F32: return type_key("f32", OpTypeFloat, {32});
    case T::F64: return type_key("f64", OpTypeFloat, {64});
  }
  return 0;
}

uint32_t Module::type_vector(T elem, uint32_t n) {
  uint32_t e = type(elem);
  return type_key("vec" + std::to_string(e) + "x" + std::to_string(n), OpTypeVector, {e, n});
}

uint32_t Module::type_array(uint32_t elem, uint32_t length, uint32_t stride) {
  uint32_t len = const_u32(length).id;
  std::string key = "arr" + std::to_string(elem) + "x" + std::to_string(length) + "s" + std::to_string(stride);
  bool fresh = !types_.count(key);
  uint32_t t = type_key(key, OpTypeArray, {elem, len});
  if (fresh && stride) decorate(t, DecArrayStride, {stride});
  return t;
}

uint32_t Module::type_runtime_array(uint32_t elem, uint32_t stride) {
  std::string key = "rarr" + std::to_string(elem) + "s" + std::to_string(stride);
  bool fresh = !types_.count(key);
  uint32_t t = type_key(key, OpTypeRuntimeArray, {elem});
  if (fresh) decorate(t, DecArrayStride, {stride});
  return t;
}

uint32_t Module::type_struct(const std::vector<uint32_t>& members) {
  uint32_t t = id();
  std::vector<uint32_t> ops{t};
  ops.insert(ops.end(), members.begin(), members.end());
  put(globals_, OpTypeStruct, ops);
  return t;
}

uint32_t Module::type_pointer(StorageClass sc, uint32_t pointee) {
  return type_key("ptr" + std::to_string(sc) + "_" + std::to_string(pointee), OpTypePointer, {uint32_t(sc), pointee});
}

uint32_t Module::type_function(uint32_t ret, const std::vector<uint32_t>& params) {
  std::string key = "fn" + std::to_string(ret);
  for (uint32_t p : params) key += "_" + std::to_string(p);
  std::vector<uint32_t> ops{ret};
  ops.insert(ops.end(), params.begin(), params.end());
  return type_key(key, OpTypeFunction, ops);
}

uint32_t Module::type_tensor_layout(uint32_t dims, uint32_t clamp_mode) {
  uint32_t d = const_u32(dims).id, c = const_u32(clamp_mode).id;
  return type_key("tensorlayout" + std::to_string(dims) + "_" + std::to_string(clamp_mode), OpTypeTensorLayoutNV, {d, c});
}

uint32_t Module::type_tensor_view_transposed() {
  uint32_t d = const_u32(2).id, has_dims = const_bool(false).id, p0 = const_u32(1).id, p1 = const_u32(0).id;
  return type_key("tensorview2_t", OpTypeTensorViewNV, {d, has_dims, p0, p1});
}

uint32_t Module::type_coopmat(T component, uint32_t rows, uint32_t cols, CoopUse use, uint32_t scope_value) {
  uint32_t c = type(component);
  uint32_t scope = const_u32(scope_value).id, r = const_u32(rows).id, k = const_u32(cols).id, u = const_u32(use).id;
  std::string key = "coop" + std::to_string(c) + "_" + std::to_string(rows) + "_" + std::to_string(cols) + "_" + std::to_string(use) + "_s" +
                    std::to_string(scope_value);
  return type_key(key, OpTypeCooperativeMatrixKHR, {c, scope, r, k, u});
}

Value Module::constant_words(T t, const std::vector<uint32_t>& words) {
  auto key = std::make_pair(t, words);
  auto it = constants_.find(key);
  if (it != constants_.end()) return Value{it->second, t};
  uint32_t tid = type(t);
  uint32_t cid = id();
  std::vector<uint32_t> ops{tid, cid};
  ops.insert(ops.end(), words.begin(), words.end());
  put(globals_, OpConstant, ops);
  constants_[key] = cid;
  return Value{cid, t};
}

Value Module::const_u32(uint32_t v) { return constant_words(T::U32, {v}); }
Value Module::const_i32(int32_t v) { return constant_words(T::I32, {uint32_t(v)}); }
Value Module::const_u64(uint64_t v) { return constant_words(T::U64, {uint32_t(v), uint32_t(v >> 32)}); }
Value Module::const_f32(float v) { return constant_words(T::F32, {std::bit_cast<uint32_t>(v)}); }
Value Module::const_f64(double v) {
  uint64_t b = std::bit_cast<uint64_t>(v);
  return constant_words(T::F64, {uint32_t(b), uint32_t(b >> 32)});
}

Value Module::const_bool(bool v) {
  auto key = std::make_pair(T::Bool, std::vector<uint32_t>{v ? 1u : 0u});
  auto it = constants_.find(key);
  if (it != constants_.end()) return Value{it->second, T::Bool};
  uint32_t tid = type(T::Bool);
  uint32_t cid = id();
  put(globals_, v ? OpConstantTrue : OpConstantFalse, {tid, cid});
  constants_[key] = cid;
  return Value{cid, T::Bool};
}

Value Module::constant(T t, double v) {
  switch (t) {
    case T::Bool: return const_bool(v != 0);
    case T::U8: return constant_words(t, {uint32_t(uint8_t(int64_t(v)))});
    case T::I8: return constant_words(t, {uint32_t(int32_t(int8_t(int64_t(v))))});
    case T::U16: return constant_words(t, {uint32_t(uint16_t(int64_t(v)))});
    case T::U32: return const_u32(uint32_t(int64_t(v)));
    case T::I32: return const_i32(int32_t(int64_t(v)));
    case T::U64: return const_u64(uint64_t(int64_t(v)));
    case T::F16: return constant_words(t, {0});  // unused by the generator
    case T::F32: return const_f32(float(v));
    case T::F64: return const_f64(v);
    case T::Void: break;
  }
  return Value{};
}

Value Module::const_null(uint32_t type_id) {
  uint32_t cid = id();
  put(globals_, OpConstantNull, {type_id, cid});
  return Value{cid, T::Void, type_id};
}

uint32_t Module::global_variable(StorageClass sc, uint32_t pointee) {
  uint32_t ptr = type_pointer(sc, pointee);
  uint32_t v = id();
  put(globals_, OpVariable, {ptr, v, uint32_t(sc)});
  global_ids_.push_back(v);
  return v;
}

uint32_t Module::begin_function(uint32_t ret_type, const std::vector<uint32_t>& param_types, std::vector<uint32_t>* out_params) {
  auto fn = std::make_unique<Function>();
  uint32_t fid = id();
  put(fn->head, OpFunction, {ret_type, fid, FunctionControlNone, type_function(ret_type, param_types)});
  for (uint32_t p : param_types) {
    uint32_t pid = id();
    put(fn->head, OpFunctionParameter, {p, pid});
    if (out_params) out_params->push_back(pid);
  }
  stack_.push_back(std::move(fn));
  label(id());
  return fid;
}

void Module::end_function() {
  Function& fn = *stack_.back();
  // The head holds OpFunction, the parameters and the first label: variables follow it.
  functions_.insert(functions_.end(), fn.head.begin(), fn.head.end());
  functions_.insert(functions_.end(), fn.vars.begin(), fn.vars.end());
  functions_.insert(functions_.end(), fn.body.begin(), fn.body.end());
  put(functions_, OpFunctionEnd, {});
  stack_.pop_back();
}

uint32_t Module::local_variable(uint32_t pointee) {
  uint32_t ptr = type_pointer(SCFunction, pointee);
  uint32_t v = id();
  put(stack_.back()->vars, OpVariable, {ptr, v, uint32_t(SCFunction)});
  return v;
}

void Module::emit(Op op, std::initializer_list<uint32_t> operands) { emit(op, std::vector<uint32_t>(operands)); }

void Module::emit(Op op, const std::vector<uint32_t>& operands) {
  Function& fn = *stack_.back();
  put(fn.body, op, operands);
  if (op == OpBranch || op == OpBranchConditional || op == OpReturn || op == OpReturnValue) fn.terminated = true;
}

bool Module::terminated() const { return stack_.back()->terminated; }

void Module::label(uint32_t lid) {
  Function& fn = *stack_.back();
  if (!fn.first_label_done) {
    put(fn.head, OpLabel, {lid});
    fn.first_label_done = true;
  } else {
    put(fn.body, OpLabel, {lid});
  }
  fn.terminated = false;
}

std::vector<uint32_t> Module::finish(uint32_t version) {
  std::vector<uint32_t> out{kMagic, version, kGenerator, next_id_, 0};
  // From SPIR-V 1.4 on, an entry point lists every module-scope variable it uses, not
  // only its inputs and outputs; listing all of them is allowed.
  entry_points_.clear();
  for (const Entry& e : entries_) {
    std::vector<uint32_t> ops{uint32_t(e.model), e.fn};
    for (uint32_t w : string_words(e.name)) ops.push_back(w);
    const std::vector<uint32_t>& ids = version >= 0x00010400 ? global_ids_ : e.interface;
    ops.insert(ops.end(), ids.begin(), ids.end());
    put(entry_points_, OpEntryPoint, ops);
  }
  for (const auto* sec : {&capabilities_, &extensions_, &imports_, &memory_model_, &entry_points_, &modes_, &debug_,
                          &annotations_, &globals_, &functions_})
    out.insert(out.end(), sec->begin(), sec->end());
  return out;
}

}  // namespace tegula::vulkan::spv
