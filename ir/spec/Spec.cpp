// The spec front end (ir/spec/Spec.h): parse the statement, check what every form needs
// (dtypes for every tensor, each tensor used at one rank and one index order, every output
// index fed by an input, names that cannot collide with the generated kernel's own), then
// hand the statement to the generator of its form.
#include <algorithm>
#include <cctype>
#include <set>

#include "ir/spec/SpecGen.h"

namespace tegula::ir {
namespace {

using spec::Expr;
using spec::spec_error;

// Names the generated kernels use themselves, and the words of the .tile language.
const char* const kReserved[] = {
    "bx", "by", "bz", "kt", "j", "acc", "x_t", "run_max", "run_sum", "new_max", "new_sum", "idx", "select", "cast",
    "bitcast", "inf", "nan", "ceildiv", "max", "min", "kernel", "alloc", "copy", "fill", "gemm", "reduce", "scan",
    "map", "store", "atomic_add", "barrier", "for", "pipelined", "parallel", "if", "else", "in", "shared", "fragment",
    "local", "global", "tune", "where", "grid", "threads", "reference", "true", "false"};

bool is_reduction_call(const Expr& e) {
  if (e.kind != Expr::Kind::Call) return false;
  if (e.name == "softmax") return true;
  return (e.name == "sum" || e.name == "max" || e.name == "min") && e.args.size() == 1;
}

void find_reductions(const Expr& e, std::vector<const Expr*>* out) {
  if (is_reduction_call(e)) out->push_back(&e);
  for (const Expr& a : e.args) find_reductions(a, out);
}

// Scalars are names outside brackets, except softmax's index argument.
void find_names(const Expr& e, std::vector<const Expr*>* out) {
  if (e.kind == Expr::Kind::Name) out->push_back(&e);
  size_t n = e.kind == Expr::Kind::Call && e.name == "softmax" ? 1 : e.args.size();
  for (size_t i = 0; i < n && i < e.args.size(); ++i) find_names(e.args[i], out);
}

Status check_name(const std::string& name, int column) {
  for (const char* r : kReserved)
    if (name == r) return spec_error(column, "'" + name + "' is a name the generated kernel uses; rename the tensor");
  if (name.size() > 2 && name.compare(name.size() - 2, 2, "_s") == 0)
    return spec_error(column, "'" + name + "': names ending in _s are the generated kernel's tiles; rename the tensor");
  if (parse_dtype(name)) return spec_error(column, "'" + name + "' is a dtype; rename the tensor");
  return Status::ok();
}

Status check_refs(const spec::Checked& c, const std::vector<const Expr*>& refs, std::set<std::string>* indices) {
  for (const Expr* r : refs)
    for (const std::string& i : r->indices) indices->insert(i);
  std::map<std::string, const Expr*> first;
  for (const Expr* r : refs) {
    for (size_t a = 0; a < r->indices.size(); ++a)
      for (size_t b = 0; b < a; ++b)
        if (r->indices[a] == r->indices[b])
          return spec_error(r->index_columns[a], "index '" + r->indices[a] + "' appears twice in " + r->name +
                                                     "[...] (diagonals are not supported)");
    auto [it, fresh] = first.emplace(r->name, r);
    if (!fresh && it->second->indices.size() != r->indices.size())
      return spec_error(r->column, "mismatched ranks: " + r->name + " has " + std::to_string(r->indices.size()) +
                                       " indices here but " + std::to_string(it->second->indices.size()) + " at column " +
                                       std::to_string(it->second->column));
    if (!fresh && it->second->indices != r->indices)
      return spec_error(r->column, r->name + " is indexed differently here than at column " +
                                       std::to_string(it->second->column) + " (one tile per tensor)");
    if (!c.dtypes.count(r->name))
      return spec_error(r->column, "no dtype for tensor '" + r->name + "' (add " + r->name + "=bf16 or another to --dtypes)");
  }
  for (const Expr* r : refs) TG_RETURN_IF_ERROR(check_name(r->name, r->column));
  return Status::ok();
}

Result<spec::Checked> check(std::string_view text, const SpecOptions& options) {
  spec::Checked c;
  c.text = std::string(text);
  TG_ASSIGN_OR_RETURN(c.s, spec::parse_statement(text));
  c.acc = options.acc;
  for (const auto& [name, dtype] : options.dtypes) c.dtypes[name] = dtype;
  std::vector<const Expr*> inputs;
  spec::collect_refs(c.s.rhs, &inputs);
  for (const Expr* r : inputs)
    if (r->name == c.s.out.name)
      return spec_error(r->column, "the output " + r->name + " is also read; write " + r->name + "[...] += ... to accumulate");
  std::vector<const Expr*> refs = inputs;
  refs.push_back(&c.s.out);
  std::set<std::string> indices;
  TG_RETURN_IF_ERROR(check_refs(c, refs, &indices));
  // Every output index must come from an input (its extent is an input's).
  for (size_t a = 0; a < c.s.out.indices.size(); ++a) {
    bool found = false;
    for (const Expr* r : inputs) found = found || std::count(r->indices.begin(), r->indices.end(), c.s.out.indices[a]);
    if (!found)
      return spec_error(c.s.out.index_columns[a], "index '" + c.s.out.indices[a] + "' of the output appears in no input");
  }
  std::vector<const Expr*> names;
  find_names(c.s.rhs, &names);
  for (const Expr* n : names) {
    if (indices.count(n->name))
      return spec_error(n->column, "index '" + n->name + "' used as a value (idx-valued expressions are not supported)");
    TG_RETURN_IF_ERROR(check_name(n->name, n->column));
    if (std::find(c.scalars.begin(), c.scalars.end(), n->name) == c.scalars.end()) c.scalars.push_back(n->name);
    if (!c.dtypes.count(n->name)) c.dtypes[n->name] = DType::F32;
  }
  for (const auto& [name, dtype] : options.dtypes) {
    bool used = std::count(c.scalars.begin(), c.scalars.end(), name) > 0;
    for (const Expr* r : refs) used = used || r->name == name;
    if (!used) {
      std::string named;
      for (const Expr* r : refs) named += (named.empty() ? "" : ", ") + r->name;
      return spec_error(1, "unknown tensor '" + name + "' in --dtypes (the spec names " + named + ")");
    }
  }
  // The generated kernel's tunables keep their usual names unless a tensor or scalar has
  // one (a residual R, a scale S): then a _ is added while the name is taken.
  std::set<std::string> taken(c.scalars.begin(), c.scalars.end());
  for (const Expr* r : refs) taken.insert(r->name);
  for (const char* t : spec::kTunableNames) {
    std::string name = t;
    while (taken.count(name)) name += "_";
    c.tunables[t] = name;
  }
  // Shape symbols: capitals, kept apart from tensors, scalars, the tunables (as chosen, and
  // as usually named: a symbol S would read as the stage count) and each other.
  for (const auto& [usual, chosen] : c.tunables) {
    taken.insert(usual);
    taken.insert(chosen);
  }
  for (const std::string& i : indices) {
    std::string s = i;
    for (char& ch : s) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    while (taken.count(s)) s += "_";
    taken.insert(s);
    c.symbols[i] = s;
  }
  c.name = options.name.empty() ? c.s.out.name + "_spec" : options.name;
  bool identifier = !c.name.empty() && !std::isdigit(static_cast<unsigned char>(c.name[0]));
  for (char ch : c.name) identifier = identifier && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
  if (!identifier) return error(ErrorCode::InvalidArgument, "--name: '" + c.name + "' is not an identifier");
  return c;
}

}  // namespace

Result<std::vector<std::pair<std::string, DType>>> parse_spec_dtypes(std::string_view text) {
  std::vector<std::pair<std::string, DType>> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = std::min(text.find(',', pos), text.size());
    std::string_view item = text.substr(pos, end - pos);
    SourceLoc loc{"--dtypes", 1, int(pos) + 1};
    size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return error(ErrorCode::InvalidArgument, "expected NAME=DTYPE, found '" + std::string(item) + "'", loc);
    std::string name(item.substr(0, eq));
    std::optional<DType> t = parse_dtype(item.substr(eq + 1));
    if (!t) return error(ErrorCode::InvalidArgument, "unknown dtype '" + std::string(item.substr(eq + 1)) + "'", loc);
    for (const auto& [other, unused] : out)
      if (other == name) return error(ErrorCode::InvalidArgument, "'" + name + "' is given twice", loc);
    out.emplace_back(name, *t);
    pos = end + 1;
  }
  return out;
}

Result<std::string> kernel_from_spec(std::string_view text, const SpecOptions& options) {
  TG_ASSIGN_OR_RETURN(spec::Checked c, check(text, options));
  std::vector<const Expr*> reductions;
  find_reductions(c.s.rhs, &reductions);
  if (reductions.size() > 1)
    return spec_error(reductions[1]->column, "one reduction per kernel (" + reductions[0]->name + " at column " +
                                                 std::to_string(reductions[0]->column) + " is the first)");
  Result<std::string> kernel = reductions.size() == 1 ? spec::generate_rows(c, *reductions[0]) : spec::generate_gemm(c);
  if (!kernel.is_ok()) return kernel;
  return spec::name_tunables(c, *kernel);
}

namespace spec {

std::string symbol(const Checked& c, const std::string& index) { return c.symbols.at(index); }

std::string name_tunables(const Checked& c, const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$') {
      out += text[i];
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) ++end;
    auto it = c.tunables.find(text.substr(i + 1, end - i - 1));
    if (it == c.tunables.end()) {
      out += text[i];
      continue;
    }
    out += it->second;
    i = end - 1;
  }
  return out;
}

std::string param(const Checked& c, const std::string& tensor, const std::vector<std::string>& shape) {
  std::string out = tensor + ": " + dtype_name(c.dtypes.at(tensor));
  if (shape.empty()) return out;
  out += "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + shape[i];
  return out + "]";
}

std::string header_comment(const Checked& c, const std::vector<std::string>& roles) {
  std::string out = "// Generated by tegula spec \"" + c.text + "\"\n";
  for (const std::string& r : roles) out += "// " + r + "\n";
  return out;
}

}  // namespace spec
}  // namespace tegula::ir
