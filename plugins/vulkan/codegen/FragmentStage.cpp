// Element reads of a fragment by index inside a parallel loop (`f[15 - i, j]`): the element
// lives in the registers of the thread the fragment's layout gives it to, which is in
// general not the thread running the iteration. Before such a loop every thread writes the
// slots it holds into a shared copy of the fragment (row-major, the dtype's storage
// encoding: registers hold values already rounded to the dtype, so the round trip is exact)
// and the loop reads the copy. One barrier before the writes (an earlier loop, or the
// previous trip of an enclosing loop, may still be reading the copy) and one after.
#include "plugins/vulkan/codegen/KernelGen.h"

#include <functional>
#include <set>

#include "ir/Analysis.h"
#include "ir/lower/Context.h"

namespace tegula::vulkan {

using namespace spv;

/// Fragments a parallel loop's body reads element by element.
static std::set<std::string> fragments_read_by_index(const ir::Block& body, KernelGen& g) {
  std::set<std::string> out;
  for (const std::string& name : ir::element_loads(body)) {
    Buf* b = g.find_buf(name);
    if (b && b->scope == ir::Scope::Fragment && !b->opaque) out.insert(name);
  }
  return out;
}

/// The shared copy of a fragment, declared on first use.
Buf& KernelGen::staged_copy(const Buf& fragment) {
  if (auto it = staged_.find(&fragment); it != staged_.end()) return *it->second;
  Buf& b = bufs_.emplace_back();
  b.name = fragment.name + ".staged";
  b.scope = ir::Scope::Shared;
  b.dtype = fragment.dtype;
  b.shape = fragment.shape;
  b.elem = Conversions::storage_type(b.dtype);
  b.elem_type = m_.type(b.elem);
  int64_t elems = 1;
  for (int64_t d : b.shape) elems *= d;
  b.stage_elems = elems;
  b.var = m_.global_variable(SCWorkgroup, m_.type_array(b.elem_type, uint32_t(elems)));
  m_.name(b.var, b.name);
  iface_.shared_bytes += uint32_t(elems * int64_t(dtype_size(b.dtype)));
  staged_[&fragment] = &b;
  return b;
}

Status KernelGen::stage_fragments(const ir::Stmt& parallel) {
  std::set<std::string> names = fragments_read_by_index(parallel.body(), *this);
  if (names.empty()) return Status::ok();
  b_.barrier();
  for (const std::string& name : names) {
    Buf* f = find_buf(name);
    Buf& copy = staged_copy(*f);
    Exec e = bind(f->dist, int(f->shape.size()));
    auto write = [&] {
      for_slots(e, f->shape, [&](int64_t v, const std::vector<Value>& c) { write_memory(copy, c, read_slot(*f, v)); });
    };
    // Replicated threads hold the same values; the first copy writes them.
    if (e.replicated) b_.if_(e.primary, write);
    else write();
  }
  b_.barrier();
  return Status::ok();
}

}  // namespace tegula::vulkan
