/// \file
/// What rows share to decide applicability from a description and to find markers in a
/// lowered kernel and its explain log.
#pragma once

#include <functional>
#include <string>

#include "ir/IR.h"
#include "ir/Lower.h"
#include "targets/Target.h"

namespace tegula::ir::optimizations {

/// "no NAME feature" when the target lacks it, "" otherwise.
std::string lacks_feature(const TargetDescription& t, Feature f);
/// Whether the catalogue has an instruction of this kind (and, given, this scope).
bool has_instruction(const TargetDescription& t, InstructionKind kind);
bool has_instruction(const TargetDescription& t, InstructionKind kind, GroupScope scope);
/// "no KIND instruction in the matrix-instruction catalogue" when it has none, "" otherwise.
std::string lacks_instruction(const TargetDescription& t, InstructionKind kind);

/// The first statement (in program order, nested blocks included) that satisfies `pred`.
const Stmt* find_stmt(const Kernel& k, const std::function<bool(const Stmt&)>& pred);
/// The printed value of an attribute of a statement, "" when it has none.
std::string attr_text(const Stmt& s, const char* name);
/// "NAME=VALUE (line L)": an attribute as a marker.
std::string marker(const Stmt& s, const char* name);
/// The first explain-log line that contains `needle`, "" when none does.
std::string log_line(const LowerResult& r, const std::string& needle);
/// What the kernel's first gemm became ("gemm: mma.inst=..."), for a detector that did not
/// find its marker; "" without a gemm.
std::string gemm_choice(const LowerResult& r);
/// Evidence of absence: `why`, then the first log line with `needle` where there is one.
std::string absent(const LowerResult& r, const std::string& why, const std::string& needle);

}  // namespace tegula::ir::optimizations
