// Shared pieces of the rows' applicability checks and detectors (Detect.h).
#include "ir/lower/optimizations/Detect.h"

#include "ir/Analysis.h"
#include "ir/Printer.h"

namespace tegula::ir::optimizations {

std::string lacks_feature(const TargetDescription& t, Feature f) {
  return t.has_feature(f) ? "" : std::string("no ") + feature_name(f) + " feature";
}

bool has_instruction(const TargetDescription& t, InstructionKind kind) {
  for (const MatrixInstruction& mi : t.matrix_instructions)
    if (mi.kind == kind) return true;
  return false;
}

bool has_instruction(const TargetDescription& t, InstructionKind kind, GroupScope scope) {
  for (const MatrixInstruction& mi : t.matrix_instructions)
    if (mi.kind == kind && mi.scope == scope) return true;
  return false;
}

std::string lacks_instruction(const TargetDescription& t, InstructionKind kind) {
  if (has_instruction(t, kind)) return "";
  return std::string("no ") + instruction_kind_name(kind) + " instruction in the matrix-instruction catalogue";
}

const Stmt* find_stmt(const Kernel& k, const std::function<bool(const Stmt&)>& pred) {
  const Stmt* found = nullptr;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (!found && pred(s)) found = &s;
  });
  return found;
}

std::string attr_text(const Stmt& s, const char* name) {
  const Attr* a = find_attr(s.attrs, name);
  return a ? print_attr_value(a->value) : "";
}

std::string marker(const Stmt& s, const char* name) {
  std::string m = std::string(name) + "=" + attr_text(s, name);
  if (s.loc.known()) m += " (line " + std::to_string(s.loc.line) + ")";
  return m;
}

std::string log_line(const LowerResult& r, const std::string& needle) {
  for (const std::string& line : r.log)
    if (line.find(needle) != std::string::npos) return line;
  return "";
}

std::string gemm_choice(const LowerResult& r) {
  const Stmt* g = find_stmt(r.kernel, [](const Stmt& s) { return s.op == OpKind::Gemm; });
  if (!g) return "";
  return "gemm: mma.inst=" + attr_text(*g, "mma.inst") + ", mma.a=" + attr_text(*g, "mma.a") +
         ", mma.b=" + attr_text(*g, "mma.b");
}

std::string absent(const LowerResult& r, const std::string& why, const std::string& needle) {
  std::string line = needle.empty() ? "" : log_line(r, needle);
  return line.empty() ? why : why + "; the lowering says: " + line;
}

}  // namespace tegula::ir::optimizations
