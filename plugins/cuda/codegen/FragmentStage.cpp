/// \file
/// Element reads of a fragment by index inside a parallel loop (`f[15 - i, j]`): the element
/// lives in the registers of the thread the fragment's layout gives it to, which is in
/// general not the thread running the iteration. Each such fragment gets a shared copy
/// (row-major, the dtype's storage encoding: registers hold values already rounded to the
/// dtype, so the round trip is exact). Before a parallel loop that reads it, every thread
/// writes the slots it holds into the copy, and the loop's loads read the copy. One barrier
/// before the writes (an earlier loop, or the previous trip of an enclosing loop, may still
/// be reading the copy) and one after; the registers stay the fragment, so later writes to
/// it need nothing more.
#include <functional>
#include <set>

#include "ir/Analysis.h"
#include "ir/lower/Context.h"
#include "plugins/cuda/codegen/Emitter.h"

namespace tegula::cuda::gen {

/// Fragments (of `fragments`) that a parallel loop's body reads element by element.
static std::set<std::string> fragments_read_by_index(const ir::Block& body, const std::set<std::string>& fragments) {
  std::set<std::string> out;
  for (const std::string& name : ir::element_loads(body))
    if (fragments.count(name)) out.insert(name);
  return out;
}

std::set<std::string> Emitter::fragment_names() const {
  std::set<std::string> out;
  for (const Buffer& b : buffers_)
    if (b.scope == ir::Scope::Fragment) out.insert(b.name);
  return out;
}

Status Emitter::plan_fragment_stages() {
  std::set<std::string> fragments = fragment_names();
  std::set<std::string> read;
  ir::for_each_stmt(k_.body, [&](const ir::Stmt& s) {
    if (s.op != ir::OpKind::Parallel) return;
    for (const std::string& n : fragments_read_by_index(s.body(), fragments)) read.insert(n);
  });
  for (const std::string& name : read) {
    const Buffer* f = buffer(name);
    Buffer b;
    // A name no other buffer has: it names the so_ offset function.
    b.name = "tg_stage_" + name;
    while (buffer(b.name)) b.name += "_";
    b.cname = "sh_" + b.name;
    b.scope = ir::Scope::Shared;
    b.dtype = f->dtype;
    b.shape = f->shape;
    b.layout = ir::SharedLayout{};  // plain row-major
    b.stage_bytes = ir::shared_stage_bytes(b.layout, b.shape, b.dtype);
    int64_t a = std::max<int64_t>(16, b.layout.align);
    smem_used_ = (smem_used_ + a - 1) / a * a;
    b.offset = smem_used_;
    smem_used_ += b.stage_bytes;
    staged_[name] = b.name;
    add_local(b);
  }
  return Status::ok();
}

const Buffer* Emitter::staged_copy(const std::string& fragment) const {
  auto it = staged_.find(fragment);
  return it == staged_.end() ? nullptr : buffer(it->second);
}

Status Emitter::stage_fragments(const ir::Stmt& parallel) {
  std::set<std::string> names = fragments_read_by_index(parallel.body(), fragment_names());
  if (names.empty()) return Status::ok();
  emit_barrier();
  for (const std::string& name : names) {
    const Buffer* f = buffer(name);
    const Buffer* copy = staged_copy(name);
    if (!copy) return error(ErrorCode::Internal, "cuda codegen: fragment '" + name + "' read by index has no shared copy", parallel.loc);
    open("");
    TG_ASSIGN_OR_RETURN(std::vector<Elem> elems, fragment_elems(parallel, *f, {}, f->shape, 1));
    // Replicated threads hold the same values; the first copy writes them.
    std::string rep = replica_guard(f->dist);
    if (!rep.empty()) open("if (" + rep + ")");
    std::set<std::vector<int64_t>> seen;  // replicated values of one thread write once too
    for (const Elem& e : elems) {
      if (!seen.insert(e.vcoord).second) continue;
      if (!e.guard.empty()) open("if (" + e.guard + ")");
      else open("");
      write_element(*copy, e.idx, {f->cname + "[" + itos(e.slot) + "]", frag_rep(f->dtype)});
      close();
    }
    if (!rep.empty()) close();
    close();
  }
  emit_barrier();
  return Status::ok();
}

}  // namespace tegula::cuda::gen
