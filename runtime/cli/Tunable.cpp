#include "runtime/cli/Tunable.h"

#include "ir/Parser.h"
#include "runtime/cli/Options.h"

namespace tegula::cli {

Result<ir::Kernel> parse_cli_kernel(const std::string& text, const std::string& file, const std::string& tune_text,
                                    ir::TuneSpace* space) {
  TG_ASSIGN_OR_RETURN(*space, ir::parse_tune_space(text, file));
  if (space->empty()) {
    if (!tune_text.empty())
      return error(ErrorCode::InvalidArgument, file + ": --tune " + tune_text + ": the kernel has no tunables");
    return ir::parse_and_verify(text, file);
  }
  if (!tune_text.empty()) {
    TG_ASSIGN_OR_RETURN(ir::Binding b, ir::parse_binding(tune_text, *space));
    return ir::parse_and_verify(text, file, &b);
  }
  TG_ASSIGN_OR_RETURN(std::vector<ir::Binding> bindings, ir::enumerate_bindings(*space));
  Status first = error(ErrorCode::InvalidArgument, file + ": no binding of the tunables meets the where conditions");
  for (const ir::Binding& b : bindings) {
    Result<ir::Kernel> k = ir::parse_and_verify(text, file, &b);
    if (k.is_ok()) return k;
    if (&b == &bindings.front()) first = k.status().with_context("tunables " + ir::binding_text(b));
  }
  return first;
}

Result<std::map<std::string, int64_t>> parse_shape(const ir::Kernel& k, const std::string& text, int64_t fallback) {
  std::map<std::string, int64_t> shape;
  std::vector<std::string> symbols = k.symbols();
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find(',', pos);
    std::string item = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? text.size() : end + 1;
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      return error(ErrorCode::InvalidArgument, "bad shape item '" + item + "' (expected SYMBOL=INTEGER)");
    std::string name = item.substr(0, eq);
    bool known = false;
    for (const std::string& s : symbols) known = known || s == name;
    if (!known) return error(ErrorCode::InvalidArgument, "kernel '" + k.name + "' has no shape symbol '" + name + "'");
    TG_ASSIGN_OR_RETURN(int64_t v, parse_integer(item.substr(eq + 1), name));
    if (v < 0) return error(ErrorCode::InvalidArgument, name + " must not be negative");
    shape[name] = v;
  }
  for (const std::string& s : symbols) {
    if (shape.count(s)) continue;
    if (fallback <= 0) return error(ErrorCode::InvalidArgument, "no value for shape symbol " + s);
    shape[s] = fallback;
  }
  return shape;
}

ir::LowerOptions launch_lower_options(const std::map<std::string, int64_t>& shape, int64_t raster_group) {
  ir::LowerOptions o;
  o.tensors_aligned = true;
  o.raster_group = raster_group;
  for (const auto& [name, v] : shape) {
    int64_t div = 1;
    while (div < 16 && (v == 0 || v % (div * 2) == 0)) div *= 2;
    if (div > 1) o.divisibility[name] = div;
  }
  return o;
}

}  // namespace tegula::cli
