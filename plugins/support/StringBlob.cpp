/// \file
/// The string-owned blobs of StringBlob.h.
#include "plugins/support/StringBlob.h"

#include <utility>

namespace tegula::plugin {

void give_string_blob(std::string bytes, tg_blob* out) {
  auto* owned = new std::string(std::move(bytes));
  out->struct_size = sizeof(tg_blob);
  out->next = nullptr;
  out->data = owned->data();
  out->size = owned->size();
  out->opaque = owned;
}

void release_string_blob(tg_blob* blob) {
  if (!blob) return;
  delete static_cast<std::string*>(blob->opaque);
  blob->opaque = nullptr;
  blob->data = nullptr;
  blob->size = 0;
}

}  // namespace tegula::plugin
