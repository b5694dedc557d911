/// \file
/// validate_target(): the semantic rules of tegula.target.v1. The layout rules are the
/// important ones: a register fragment that does not cover its tile exactly once would make
/// the lowering produce wrong results silently, so every layout is checked at every shape
/// the entry allows.
#include "targets/TargetValidate.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "targets/MatrixQuery.h"

namespace tegula {

namespace {

bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

bool is_name(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool is_id_word(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// "mma_sync.m16n8k16.bf16_f32", "wgmma.m64nNk16.bf16_f32": words of letters, digits and '_'
// joined by dots, at least two of them. Upper case is allowed for symbolic sizes (N).
bool is_dotted_id(std::string_view s) {
  size_t words = 0;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view word = s.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (!is_id_word(word)) return false;
    ++words;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return words >= 2;
}

// Layout checks already passed, keyed by what they depend on. Catalogues repeat the same
// fragment layout across many dtype variants; checking each once keeps parsing fast.
using PassedChecks = std::set<std::string>;

std::string check_key(const Layout& layout, const MmaShape& shape, int group, int64_t rows,
                      int64_t cols) {
  return layout.to_string() + "|" + std::to_string(shape.m) + "," + std::to_string(shape.n) +
         "," + std::to_string(shape.k) + "|" + std::to_string(group) + "|" +
         std::to_string(rows) + "x" + std::to_string(cols);
}

std::string shape_label(const MmaShape& s) {
  return "m" + std::to_string(s.m) + "n" + std::to_string(s.n) + "k" + std::to_string(s.k);
}

Status check_thread_value(const Layout& layout, const MmaShape& shape, int group_threads,
                          int64_t rows, int64_t cols, const JsonPath& path, PassedChecks& passed) {
  std::string key = check_key(layout, shape, group_threads, rows, cols);
  if (passed.count(key) != 0) return Status::ok();
  std::string at = " (at " + shape_label(shape) + ")";
  Result<BoundLayout> bound = layout.bind(shape_symbols(shape));
  if (!bound.is_ok()) return path.fail(bound.status().message() + at);
  if (bound->rank() != 2) {
    return path.fail("expected a (thread, value) layout with 2 modes, got " +
                     std::to_string(bound->rank()) + at);
  }
  int64_t threads = bound->mode_size(0), values = bound->mode_size(1);
  if (threads != group_threads) {
    return path.fail("thread mode has " + std::to_string(threads) + " threads but the group has " +
                     std::to_string(group_threads) + at);
  }
  if (values * threads != rows * cols) {
    std::string tile = std::to_string(rows) + "x" + std::to_string(cols) + " tile";
    if ((rows * cols) % threads != 0) {
      return path.fail("a " + tile + " cannot be split evenly over " + std::to_string(threads) +
                       " threads" + at);
    }
    return path.fail("value mode has " + std::to_string(values) + " values per thread but a " +
                     tile + " over " + std::to_string(threads) + " threads needs " +
                     std::to_string(rows * cols / threads) + at);
  }
  Status bijective = bound->check_bijective(rows, cols);
  if (!bijective.is_ok()) return path.fail(bijective.message() + at);
  passed.insert(std::move(key));
  return Status::ok();
}

Status check_readback(const OperandPlacement& p, const MmaShape& shape, int group_threads,
                      int64_t rows, int64_t cols, const JsonPath& path, PassedChecks& passed) {
  if (!p.readback_layout) return Status::ok();
  return check_thread_value(*p.readback_layout, shape, group_threads, rows, cols,
                            path.field("readback_layout"), passed);
}

// Tensor memory: 128 lanes x 512 columns of 32 bits per CTA; an address is lane << 16 | column.
Status check_tensor_memory(const OperandPlacement& p, const MmaShape& shape, int group_threads,
                           int64_t rows, int64_t cols, const JsonPath& path, PassedChecks& passed) {
  constexpr int64_t kLanes = 128, kColumns = 512;
  std::string key = "tmem " + check_key(p.address_layout, shape, group_threads, rows, cols);
  std::string at = " (at " + shape_label(shape) + ")";
  JsonPath ap = path.field("address_layout");
  Result<BoundLayout> bound = p.address_layout.bind(shape_symbols(shape));
  if (!bound.is_ok()) return ap.fail(bound.status().message() + at);
  if (bound->rank() != 2 || bound->mode_size(0) != rows || bound->mode_size(1) != cols) {
    return ap.fail("expected a (row, col) layout over the " + std::to_string(rows) + "x" +
                   std::to_string(cols) + " tile" + at);
  }
  if (passed.count(key) != 0) return check_readback(p, shape, group_threads, rows, cols, path, passed);
  std::vector<bool> used(size_t(kLanes * kColumns), false);
  std::vector<int64_t> row_offsets = bound->mode_offsets(0), col_offsets = bound->mode_offsets(1);
  for (int64_t c = 0; c < cols; ++c) {
    for (int64_t r = 0; r < rows; ++r) {
      int64_t address = row_offsets[size_t(r)] + col_offsets[size_t(c)];
      int64_t lane = address >> 16, column = address & 0xffff;
      bool outside = address < 0 || lane >= kLanes || column >= kColumns;
      if (!outside && !used[size_t(lane * kColumns + column)]) {
        used[size_t(lane * kColumns + column)] = true;
        continue;
      }
      std::string where = "element (row " + std::to_string(r) + ", col " + std::to_string(c) +
                          ") maps to lane " + std::to_string(lane) + ", column " +
                          std::to_string(column);
      return ap.fail(where + (outside ? ", outside tensor memory" : ", which another element uses") + at);
    }
  }
  passed.insert(std::move(key));
  return check_readback(p, shape, group_threads, rows, cols, path, passed);
}

Status check_operand_at(const Operand& operand, const MmaShape& shape, int group_threads,
                        int64_t rows, int64_t cols, const JsonPath& path, PassedChecks& passed) {
  for (const OperandPlacement& p : operand.placements) {
    JsonPath at = path.field(operand_location_name(p.location));
    if (p.location == OperandLocation::TensorMemory) {
      TG_RETURN_IF_ERROR(check_tensor_memory(p, shape, group_threads, rows, cols, at, passed));
      continue;
    }
    if (p.form != OperandPlacement::Form::ThreadValue) continue;
    TG_RETURN_IF_ERROR(
        check_thread_value(p.layout, shape, group_threads, rows, cols, at.field("layout"), passed));
  }
  return Status::ok();
}

bool scope_fits_kind(InstructionKind kind, GroupScope scope) {
  switch (kind) {
    case InstructionKind::MmaSync: return scope == GroupScope::Warp;
    case InstructionKind::Wgmma: return scope == GroupScope::Warpgroup;
    case InstructionKind::Tcgen05: return scope == GroupScope::Cta || scope == GroupScope::CtaPair;
    case InstructionKind::Mfma: return scope == GroupScope::Wave;
    case InstructionKind::Coopmat: return scope == GroupScope::Subgroup || scope == GroupScope::Cta;
    case InstructionKind::Fma: return scope == GroupScope::Thread;
  }
  return false;
}

// The group size a scope implies, or 0 when the scope leaves it to the entry (cta, cta_pair).
int expected_group(GroupScope scope, int subgroup_width) {
  switch (scope) {
    case GroupScope::Thread: return 1;
    case GroupScope::Warp:
    case GroupScope::Wave:
    case GroupScope::Subgroup: return subgroup_width;
    case GroupScope::Warpgroup: return 4 * subgroup_width;
    case GroupScope::Cta:
    case GroupScope::CtaPair: return 0;
  }
  return 0;
}

Status check_group(const TargetDescription& t, const MatrixInstruction& mi, const JsonPath& path) {
  if (!scope_fits_kind(mi.kind, mi.scope)) {
    return path.field("scope").fail(std::string("scope '") + group_scope_name(mi.scope) +
                                    "' does not fit kind '" + instruction_kind_name(mi.kind) + "'");
  }
  int expected = expected_group(mi.scope, t.subgroup_width);
  if (expected != 0 && mi.group_threads != expected) {
    return path.field("group_threads").fail(
        std::to_string(mi.group_threads) + " does not match scope '" + group_scope_name(mi.scope) +
        "', which means " + std::to_string(expected) + " threads on this target");
  }
  if (mi.group_threads > t.max_threads_per_block) {
    return path.field("group_threads").fail("exceeds max_threads_per_block");
  }
  // tcgen05 is issued by a single thread for the whole group; everything else by all of it.
  int issue = mi.kind == InstructionKind::Tcgen05 ? 1 : mi.group_threads;
  if (mi.issue_threads != issue) {
    return path.field("issue_threads").fail("must be " + std::to_string(issue) + " for kind '" +
                                            instruction_kind_name(mi.kind) + "'");
  }
  return Status::ok();
}

Status check_types(const TargetDescription& t, const MatrixInstruction& mi, const JsonPath& path) {
  const std::vector<DType>* lists[4] = {&mi.a_types, &mi.b_types, &mi.c_types, &mi.d_types};
  const char* names[4] = {"a", "b", "c", "d"};
  for (int i = 0; i < 4; ++i) {
    for (DType d : *lists[i]) {
      if (t.has_dtype(d)) continue;
      return path.field("dtypes").field(names[i]).fail(std::string("dtype '") + dtype_name(d) +
                                                       "' is not among the target's dtypes");
    }
  }
  for (size_t i = 0; i < mi.required_features.size(); ++i) {
    if (t.has_feature(mi.required_features[i])) continue;
    return path.field("requires").item(i).fail(
        std::string("feature '") + feature_name(mi.required_features[i]) +
        "' is not among the target's features");
  }
  return Status::ok();
}

// Where each operand may live and which layout forms each kind may use.
Status check_placements(const TargetDescription& t, const MatrixInstruction& mi,
                        const JsonPath& path) {
  const Operand* operands[3] = {&mi.a, &mi.b, &mi.acc};
  const char* names[3] = {"a", "b", "acc"};
  for (int i = 0; i < 3; ++i) {
    for (const OperandPlacement& p : operands[i]->placements) {
      JsonPath at = path.field("layouts").field(names[i]).field(operand_location_name(p.location));
      if (i == 2 && p.location == OperandLocation::Shared) {
        return path.field("locations").field("acc").fail("the accumulator cannot live in shared memory");
      }
      if (p.location == OperandLocation::Global && (i == 2 || mi.kind != InstructionKind::Coopmat || mi.scope != GroupScope::Cta)) {
        return path.field("locations").field(names[i]).fail(
            "only the A and B operands of a cta-scope coopmat entry can be loaded from global memory");
      }
      if (p.location == OperandLocation::TensorMemory && !t.has_feature(Feature::TensorMemory)) {
        return path.field("locations").field(names[i]).fail(
            "tensor_memory needs the target feature 'tensor_memory'");
      }
      bool is_fma = mi.kind == InstructionKind::Fma;
      bool is_coopmat = mi.kind == InstructionKind::Coopmat;
      if (is_fma != (p.form == OperandPlacement::Form::Free)) {
        return at.field("layout").fail(is_fma ? "the fma fallback's layouts must be \"free\""
                                              : "\"free\" is only for the fma fallback");
      }
      bool opaque_registers = p.location == OperandLocation::Registers &&
                              p.form == OperandPlacement::Form::Opaque;
      if (opaque_registers != (is_coopmat && p.location == OperandLocation::Registers)) {
        return at.field("layout").fail(is_coopmat
                                           ? "cooperative-matrix fragments must be \"opaque\""
                                           : "register fragments need a thread-value layout");
      }
    }
  }
  return Status::ok();
}

Status check_instruction(const TargetDescription& t, const MatrixInstruction& mi,
                         const JsonPath& path, PassedChecks& passed) {
  if (!is_dotted_id(mi.id)) {
    return path.field("id").fail("'" + mi.id +
                                 "' is not a dotted id like \"mma_sync.m16n8k16.bf16_f32\"");
  }
  if (!(mi.rate > 0)) return path.field("rate").fail("must be positive");
  if (mi.mnemonic.empty()) return path.field("mnemonic").fail("must not be empty");
  TG_RETURN_IF_ERROR(check_types(t, mi, path));
  TG_RETURN_IF_ERROR(check_group(t, mi, path));
  TG_RETURN_IF_ERROR(check_placements(t, mi, path));
  if (mi.kind == InstructionKind::Fma && !(mi.m.is_fixed() && mi.m.ranges[0].min == 1 &&
                                           mi.n.is_fixed() && mi.n.ranges[0].min == 1 &&
                                           mi.k.is_fixed() && mi.k.ranges[0].min == 1)) {
    return path.fail("the fma fallback computes a 1x1x1 tile: m, n and k must be 1");
  }
  // Every shape is validated, so the expansion must stay small; real entries allow <= 32.
  constexpr size_t kMaxShapes = 4096;
  size_t shapes = mi.m.values().size() * mi.n.values().size() * mi.k.values().size();
  if (shapes > kMaxShapes) {
    return path.fail("allows " + std::to_string(shapes) + " shapes; at most " +
                     std::to_string(kMaxShapes) + " are supported");
  }
  JsonPath lp = path.field("layouts");
  for (const MmaShape& s : instruction_shapes(mi)) {
    int g = mi.group_threads;
    TG_RETURN_IF_ERROR(check_operand_at(mi.a, s, g, s.m, s.k, lp.field("a"), passed));
    TG_RETURN_IF_ERROR(check_operand_at(mi.b, s, g, s.n, s.k, lp.field("b"), passed));
    TG_RETURN_IF_ERROR(check_operand_at(mi.acc, s, g, s.m, s.n, lp.field("acc"), passed));
  }
  return Status::ok();
}

Status check_limits(const TargetDescription& t, const JsonPath& path) {
  if (!is_name(t.name)) {
    return path.field("name").fail("'" + t.name + "' must be lower-case letters, digits and '_'");
  }
  if (!is_pow2(t.subgroup_width)) return path.field("subgroup_width").fail("must be a power of two");
  if (t.max_threads_per_block % t.subgroup_width != 0) {
    return path.field("max_threads_per_block").fail("must be a multiple of subgroup_width");
  }
  if (!is_pow2(t.vector_bytes)) return path.field("vector_bytes").fail("must be a power of two");
  if (t.shared_memory_banks && (!is_pow2(t.shared_memory_banks->count) ||
                                !is_pow2(t.shared_memory_banks->width_bytes))) {
    return path.field("shared_memory_banks").fail("count and width_bytes must be powers of two");
  }
  if (t.dtypes.empty()) return path.field("dtypes").fail("expected at least one dtype");
  JsonPath pp = path.field("peak");
  for (size_t i = 0; i < t.peak.tflops.size(); ++i) {
    auto [dtype, value] = t.peak.tflops[i];
    JsonPath at = pp.field("tflops").field(dtype_name(dtype));
    if (!(value > 0)) return at.fail("must be positive");
    if (!t.has_dtype(dtype)) return at.fail("dtype is not among the target's dtypes");
  }
  if (t.peak.memory_gbps && !(*t.peak.memory_gbps > 0)) {
    return pp.field("memory_gbps").fail("must be positive");
  }
  if (t.peak.clock_mhz && !(*t.peak.clock_mhz > 0)) return pp.field("clock_mhz").fail("must be positive");
  return Status::ok();
}

}  // namespace

Status validate_target(const TargetDescription& t, const JsonPath& root) {
  TG_RETURN_IF_ERROR(check_limits(t, root));
  JsonPath list = root.field("matrix_instructions");
  bool has_fma = false;
  PassedChecks passed;
  for (size_t i = 0; i < t.matrix_instructions.size(); ++i) {
    const MatrixInstruction& mi = t.matrix_instructions[i];
    for (size_t j = 0; j < i; ++j) {
      if (t.matrix_instructions[j].id != mi.id) continue;
      return list.item(i).field("id").fail("'" + mi.id + "' repeats matrix_instructions[" +
                                           std::to_string(j) + "]");
    }
    TG_RETURN_IF_ERROR(check_instruction(t, mi, list.item(i), passed));
    has_fma = has_fma || mi.kind == InstructionKind::Fma;
  }
  // The lowering must always have something to fall back to.
  if (!has_fma) return list.fail("every target needs an entry of kind 'fma'");
  return Status::ok();
}

}  // namespace tegula
