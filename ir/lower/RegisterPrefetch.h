/// \file
/// The rules of register prefetching and double buffering (PlanRegisterPrefetch.cpp says
/// what they are and why), shared by the pass that plans them and by the lowered-form check
/// that refuses a forged plan, so the two cannot disagree.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "ir/Analysis.h"
#include "ir/IR.h"

namespace tegula::ir {

/// The kernel's tensors and its allocs at any depth, as the copies see them.
BufferMap buffers_at_any_depth(const Kernel& k);

/// The leading copies of a pipelined loop's body (barriers between them aside) that can be
/// loaded one iteration ahead through registers, as indices into the body. `written`: the
/// buffers the kernel writes. A copy already planned for registers still qualifies.
std::vector<size_t> register_prefetchable(const Stmt& loop, const BufferMap& buffers, const std::set<std::string>& written);

/// The tiles the prefetched `copies` (indices into the loop body) write, when they can
/// alternate between two stages whatever their current stages; empty, with `why` set, when
/// they cannot.
std::set<std::string> double_bufferable(const Kernel& k, const Stmt& loop, const std::vector<size_t>& copies, std::string& why);

}  // namespace tegula::ir
