/// \file
/// Shared copies of fragments, for the passes that move fragment data through shared memory
/// (stage_fragment_reads, exchange_fragments): one row-major, unpadded shared buffer per
/// fragment, its shape and dtype (the round trip is exact: registers hold values already
/// rounded to the dtype), named `<fragment><suffix>` made unique, and the copies to and from it.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/lower/Context.h"

namespace tegula::ir {

class SharedCopies {
public:
  SharedCopies(LowerContext& ctx, std::string suffix);

  /// The shared copy of `fragment`, allocated on first use (then *fresh is set).
  std::string of(const std::string& fragment, bool* fresh = nullptr);
  /// Bytes of the copy of a buffer with this shape and dtype.
  static int64_t bytes(const BufferInfo& info);
  /// The kernel's buffers, the copies made so far included.
  const BufferMap& buffers() const { return buffers_; }
  /// The allocs join the kernel's others at the top of the body, in the order first needed.
  void insert_allocs();

  static Stmt copy(const std::string& from, const std::string& to, const SourceLoc& loc);

private:
  LowerContext& ctx_;
  std::string suffix_;
  BufferMap buffers_;
  std::set<std::string> taken_;
  std::map<std::string, std::string> copy_of_;
  std::vector<Stmt> allocs_;
};

/// `e` with every node of `kind` (a Load or a bare Tile) that names a buffer in `to` naming its
/// replacement; unchanged nodes are shared, changed ones copied (kernels share nodes).
Expr rename_buffers(const Expr& e, ExprKind kind, const std::map<std::string, std::string>& to);

}  // namespace tegula::ir
