/// \file
/// Operand forwarding: when a gemm's instruction loads its A or B tile straight from the
/// tensor (location `global`, workgroup-scope cooperative matrices), the shared tile that
/// only stages that operand is not needed. These helpers say when a tile is such a staging
/// tile; select_instructions uses them to decide whether such an instruction fits, and
/// forward_operands (ForwardOperands.cpp) marks what it decided.
#pragma once

#include <string>

#include "ir/IR.h"

namespace tegula::ir {

/// The copy that stages operand A (`operand_a`) or B of `gemm` from a tensor, or nullptr
/// with the reason in `why`. It must be the tile's only writer, copy a whole tile of the
/// same dtype with no padding value, sit in the gemm's block before it, and the tile must
/// be read by this gemm alone; and the tensor must be written by nothing in the kernel (the
/// load moves from the copy to the gemm). Whether the instruction takes the operand's major
/// order is the entry's `majors`, checked by selection.
const Stmt* staging_copy(const Kernel& kernel, const Stmt& gemm, bool operand_a, std::string& why);

/// Whether an alloc is a shared tile whose only use was forwarded (`layout.forwarded`):
/// backends need not declare it, and it takes no shared memory.
bool is_forwarded(const Stmt& alloc);

}  // namespace tegula::ir
