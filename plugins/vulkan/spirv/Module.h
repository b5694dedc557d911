/// \file
/// A small SPIR-V module builder: binary words, no text, no external tools. Types and
/// constants are created on demand and deduplicated; functions are written one at a time
/// into their own buffers (the current function is a stack, so a helper function can be
/// defined while another is half written) and the module is assembled in the section order
/// the specification requires by finish().
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "plugins/vulkan/spirv/Spirv.h"

namespace tegula::vulkan::spv {

/// Scalar types the generator works with.
enum class T : uint8_t { Void, Bool, U8, I8, U16, U32, I32, U64, F16, F32, F64 };

bool is_float(T t);
bool is_signed_int(T t);
int bit_width(T t);

/// A value: its id and scalar type (Void for non-scalar values such as cooperative matrices,
/// whose type id is in `type`).
struct Value {
  uint32_t id = 0;
  T ty = T::Void;
  uint32_t type = 0;  ///< the type id when ty == Void
};

class Module {
public:
  Module();

  uint32_t id() { return next_id_++; }
  uint32_t bound() const { return next_id_; }

  // --- header sections --------------------------------------------------------------
  void capability(Capability c);
  void extension(const std::string& name);
  uint32_t glsl();  ///< the GLSL.std.450 import id
  void memory_model(AddressingModel a, MemoryModel m);
  void entry_point(ExecutionModel model, uint32_t fn, const std::string& name, const std::vector<uint32_t>& interface);
  void execution_mode(uint32_t fn, ExecutionMode mode, std::initializer_list<uint32_t> literals);
  void name(uint32_t id, const std::string& text);
  void member_name(uint32_t id, uint32_t member, const std::string& text);
  void decorate(uint32_t id, Decoration d, std::initializer_list<uint32_t> literals = {});
  void member_decorate(uint32_t id, uint32_t member, Decoration d, std::initializer_list<uint32_t> literals = {});

  // --- types (deduplicated) -----------------------------------------------------------
  uint32_t type(T t);
  uint32_t type_vector(T elem, uint32_t n);
  /// A sized array; stride != 0 adds ArrayStride (only for explicitly laid out storage).
  uint32_t type_array(uint32_t elem, uint32_t length, uint32_t stride = 0);
  uint32_t type_runtime_array(uint32_t elem, uint32_t stride);
  /// A struct (never deduplicated: decorations differ per use).
  uint32_t type_struct(const std::vector<uint32_t>& members);
  uint32_t type_pointer(StorageClass sc, uint32_t pointee);
  uint32_t type_function(uint32_t ret, const std::vector<uint32_t>& params);
  /// SPV_NV_tensor_addressing: a tensor layout of `dims` dimensions and clamp mode, and a
  /// 2-D tensor view without its own dimensions whose coordinates are permuted (1, 0).
  uint32_t type_tensor_layout(uint32_t dims, uint32_t clamp_mode);
  uint32_t type_tensor_view_transposed();
  uint32_t type_coopmat(T component, uint32_t rows, uint32_t cols, CoopUse use, uint32_t scope = ScopeSubgroup);

  // --- constants (deduplicated) ---------------------------------------------------------
  Value const_u32(uint32_t v);
  Value const_i32(int32_t v);
  Value const_u64(uint64_t v);
  Value const_f32(float v);
  Value const_f64(double v);
  Value const_bool(bool v);
  /// A constant of any scalar type from its value (rounded or truncated to the type).
  Value constant(T t, double v);
  Value const_null(uint32_t type_id);

  /// A module-scope variable.
  uint32_t global_variable(StorageClass sc, uint32_t pointee);

  // --- functions ----------------------------------------------------------------------
  /// Start a function; until end_function() every emit() goes into it.
  uint32_t begin_function(uint32_t ret_type, const std::vector<uint32_t>& param_types, std::vector<uint32_t>* out_params);
  void end_function();
  bool in_function() const { return !stack_.empty(); }
  /// A Function-storage variable of the current function (placed in its first block).
  uint32_t local_variable(uint32_t pointee);

  /// Append an instruction to the current function.
  void emit(Op op, std::initializer_list<uint32_t> operands);
  void emit(Op op, const std::vector<uint32_t>& operands);
  /// Whether the current block has ended (a branch or return was emitted).
  bool terminated() const;
  void label(uint32_t id);

  /// Assemble the module; `version` is 0x00010300 for SPIR-V 1.3 and so on.
  std::vector<uint32_t> finish(uint32_t version);

  /// A string as SPIR-V literal words (NUL-terminated, padded).
  static std::vector<uint32_t> string_words(const std::string& s);

private:
  struct Function {
    std::vector<uint32_t> head;  // OpFunction, OpFunctionParameter*
    std::vector<uint32_t> vars;  // OpVariable Function, placed after the first label
    std::vector<uint32_t> body;
    bool first_label_done = false;
    bool terminated = true;
  };
  static void put(std::vector<uint32_t>& sec, Op op, const std::vector<uint32_t>& operands);
  uint32_t type_key(const std::string& key, Op op, const std::vector<uint32_t>& operands);
  Value constant_words(T t, const std::vector<uint32_t>& words);

  struct Entry {
    ExecutionModel model;
    uint32_t fn;
    std::string name;
    std::vector<uint32_t> interface;
  };
  std::vector<Entry> entries_;
  std::vector<uint32_t> global_ids_;  ///< every module-scope OpVariable, in order
  uint32_t next_id_ = 1;
  uint32_t glsl_ = 0;
  std::vector<uint32_t> capabilities_, extensions_, imports_, memory_model_, entry_points_, modes_, debug_, annotations_,
      globals_, functions_;
  std::vector<uint32_t> capability_list_;
  std::vector<std::string> extension_list_;
  std::map<std::string, uint32_t> types_;
  std::map<std::pair<T, std::vector<uint32_t>>, uint32_t> constants_;
  std::vector<std::unique_ptr<Function>> stack_;
};

}  // namespace tegula::vulkan::spv
