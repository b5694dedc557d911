#include "ir/FirstInstance.h"

#include <vector>

#include "ir/Parser.h"
#include "ir/Tunables.h"

namespace tegula::ir {

Result<Kernel> parse_first_instance(std::string_view text, const std::string& file, bool verify) {
  TG_ASSIGN_OR_RETURN(TuneSpace space, parse_tune_space(text, file));
  return parse_first_instance(text, file, space, verify);
}

Result<Kernel> parse_first_instance(std::string_view text, const std::string& file, const TuneSpace& space, bool verify) {
  const Binding* first = nullptr;
  std::vector<Binding> bindings;
  if (!space.empty()) {
    TG_ASSIGN_OR_RETURN(bindings, enumerate_bindings(space));
    if (bindings.empty()) return error(ErrorCode::InvalidArgument, file + ": no binding of the tunables meets the where conditions");
    first = &bindings.front();
  }
  return verify ? parse_and_verify(text, file, first) : parse_kernel(text, file, first);
}

}  // namespace tegula::ir
