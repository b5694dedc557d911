#include "runtime/KernelFacts.h"

#include <charconv>
#include <cstdint>
#include <optional>

#include "ir/Analysis.h"

namespace tegula::runtime {
namespace {

constexpr const char* kFactsHead = "facts 1";

#define TG_COUNT_ONE(...) +1
constexpr int kBinaryOps = 0 TG_FOR_EACH_BINARY(TG_COUNT_ONE);
constexpr int kUnaryOps = 0 TG_FOR_EACH_UNARY(TG_COUNT_ONE);
#undef TG_COUNT_ONE

/// Names as the parser makes them; anything else would not survive the space-separated text.
bool is_name(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.')) return false;
  return true;
}

Status unencodable(const std::string& why) { return error(ErrorCode::Internal, "kernel facts: " + why); }

Status encode_expr(const ir::Expr& e, std::string& out) {
  std::string at = "@" + std::to_string(e->loc.line) + ":" + std::to_string(e->loc.column);
  switch (e->kind) {
    case ir::ExprKind::IntImm: out += " i" + std::to_string(e->int_value) + at; return Status::ok();
    case ir::ExprKind::Var:
      if (!is_name(e->name)) return unencodable("the name '" + e->name + "' has no encoding");
      out += " v" + e->name + at;
      return Status::ok();
    case ir::ExprKind::Binary:
      out += " b" + std::to_string(int(e->binary)) + at;
      TG_RETURN_IF_ERROR(encode_expr(e->args[0], out));
      return encode_expr(e->args[1], out);
    case ir::ExprKind::Unary:
      out += " u" + std::to_string(int(e->unary)) + at;
      return encode_expr(e->args[0], out);
    // Element values never appear in a kernel's header (the verifier keeps them out).
    case ir::ExprKind::FloatImm:
    case ir::ExprKind::Load:
    case ir::ExprKind::Tile:
    case ir::ExprKind::ElemIndex:
    case ir::ExprKind::Cast:
    case ir::ExprKind::Bitcast:
    case ir::ExprKind::Select: break;
  }
  return unencodable("a grid expression of this kind has no encoding");
}

/// Reads the facts text line by line and token by token; every failure names the line.
class Reader {
public:
  Reader(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  bool next_line() {
    if (at_ >= text_.size()) return false;
    size_t end = text_.find('\n', at_);
    if (end == std::string_view::npos) end = text_.size();
    line_ = text_.substr(at_, end - at_);
    at_ = end + 1;
    ++line_number_;
    return true;
  }
  std::string_view token() {
    while (!line_.empty() && line_[0] == ' ') line_.remove_prefix(1);
    size_t end = line_.find(' ');
    std::string_view t = line_.substr(0, end);
    line_.remove_prefix(end == std::string_view::npos ? line_.size() : end);
    return t;
  }
  bool line_done() {
    while (!line_.empty() && line_[0] == ' ') line_.remove_prefix(1);
    return line_.empty();
  }
  Status bad(const std::string& why) const {
    return error(ErrorCode::Corrupt, "kernel facts, line " + std::to_string(line_number_) + ": " + why);
  }
  Result<int64_t> integer(std::string_view t) const {
    int64_t v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return bad("'" + std::string(t) + "' is not an integer");
    return v;
  }
  Result<std::string> name(std::string_view t) const {
    if (!is_name(t)) return bad("'" + std::string(t) + "' is not a name");
    return std::string(t);
  }
  Result<ir::Expr> expr(int depth = 0) {
    if (depth > 64) return bad("an expression nested too deep");
    std::string_view t = token();
    size_t at = t.rfind('@');
    size_t colon = t.rfind(':');
    if (t.size() < 2 || at == std::string_view::npos || colon == std::string_view::npos || colon < at)
      return bad("'" + std::string(t) + "' is not an expression token");
    SourceLoc loc;
    loc.file = file_;
    TG_ASSIGN_OR_RETURN(int64_t line, integer(t.substr(at + 1, colon - at - 1)));
    TG_ASSIGN_OR_RETURN(int64_t column, integer(t.substr(colon + 1)));
    if (line < 0 || column < 0 || line > INT32_MAX || column > INT32_MAX) return bad("a position out of range");
    loc.line = int(line);
    loc.column = int(column);
    std::string_view body = t.substr(1, at - 1);
    switch (t[0]) {
      case 'i': {
        TG_ASSIGN_OR_RETURN(int64_t v, integer(body));
        return ir::int_imm(v, loc);
      }
      case 'v': {
        TG_ASSIGN_OR_RETURN(std::string n, name(body));
        return ir::var(n, loc);
      }
      case 'b': {
        TG_ASSIGN_OR_RETURN(int64_t op, integer(body));
        if (op < 0 || op >= kBinaryOps) return bad("binary operator " + std::to_string(op) + " does not exist");
        TG_ASSIGN_OR_RETURN(ir::Expr a, expr(depth + 1));
        TG_ASSIGN_OR_RETURN(ir::Expr b, expr(depth + 1));
        return ir::binary(ir::BinaryOp(op), a, b, loc);
      }
      case 'u': {
        TG_ASSIGN_OR_RETURN(int64_t op, integer(body));
        if (op < 0 || op >= kUnaryOps) return bad("unary operator " + std::to_string(op) + " does not exist");
        TG_ASSIGN_OR_RETURN(ir::Expr a, expr(depth + 1));
        return ir::unary(ir::UnaryOp(op), a, loc);
      }
      default: return bad("'" + std::string(t) + "' is not an expression token");
    }
  }

private:
  std::string_view text_;
  std::string file_;
  size_t at_ = 0;
  std::string_view line_;
  int line_number_ = 0;
};

Result<ir::Param> decode_param(Reader& r, bool* written) {
  ir::Param p;
  TG_ASSIGN_OR_RETURN(p.name, r.name(r.token()));
  std::string_view kind = r.token();
  if (kind != "tensor" && kind != "scalar") return r.bad("'" + std::string(kind) + "' is neither tensor nor scalar");
  p.is_tensor = kind == "tensor";
  std::string_view dtype = r.token();
  std::optional<DType> d = parse_dtype(dtype);
  if (!d) return r.bad("'" + std::string(dtype) + "' is not a dtype");
  p.dtype = *d;
  std::string_view w = r.token();
  if (w != "0" && w != "1") return r.bad("the written flag is '" + std::string(w) + "'");
  *written = w == "1";
  TG_ASSIGN_OR_RETURN(int64_t rank, r.integer(r.token()));
  if (rank < 0 || rank > 16 || (!p.is_tensor && rank != 0)) return r.bad("rank " + std::to_string(rank));
  for (int64_t i = 0; i < rank; ++i) {
    std::string_view t = r.token();
    if (!t.empty() && (t[0] == '-' || (t[0] >= '0' && t[0] <= '9'))) {
      TG_ASSIGN_OR_RETURN(int64_t v, r.integer(t));
      p.shape.push_back(ir::int_imm(v));
    } else {
      TG_ASSIGN_OR_RETURN(std::string n, r.name(t));
      p.shape.push_back(ir::var(n));
    }
  }
  return p;
}

void put_le64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

}  // namespace

KernelFacts kernel_facts(const ir::Kernel& lowered) {
  KernelFacts f;
  f.header.name = lowered.name;
  f.header.params = lowered.params;
  f.header.grid = lowered.grid;
  f.header.threads = lowered.threads;
  f.header.loc = lowered.loc;
  f.written.assign(lowered.params.size(), false);
  for (size_t i : ir::written_params(lowered)) f.written[i] = true;
  return f;
}

Result<std::string> encode_kernel_facts(const KernelFacts& f) {
  const ir::Kernel& k = f.header;
  if (!is_name(k.name)) return unencodable("the kernel name '" + k.name + "' has no encoding");
  std::string out = std::string(kFactsHead) + "\nname " + k.name + "\nthreads " + std::to_string(k.threads) + "\n";
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (!is_name(p.name)) return unencodable("the parameter name '" + p.name + "' has no encoding");
    out += "param " + p.name + (p.is_tensor ? " tensor " : " scalar ") + dtype_name(p.dtype) +
           (i < f.written.size() && f.written[i] ? " 1 " : " 0 ") + std::to_string(p.shape.size());
    for (const ir::Expr& d : p.shape) {
      if (d->kind == ir::ExprKind::IntImm) out += " " + std::to_string(d->int_value);
      else if (d->kind == ir::ExprKind::Var && is_name(d->name)) out += " " + d->name;
      else return unencodable("a dimension of '" + p.name + "' is neither a constant nor a symbol");
    }
    out += "\n";
  }
  out += "grid " + std::to_string(k.grid.size());
  for (const ir::Expr& g : k.grid) TG_RETURN_IF_ERROR(encode_expr(g, out));
  out += "\n";
  return out;
}

Result<KernelFacts> decode_kernel_facts(std::string_view text, const std::string& file) {
  Reader r(text, file);
  if (!r.next_line() || r.token() != "facts" || r.token() != "1" || !r.line_done())
    return r.bad("not kernel facts of format 1");
  KernelFacts f;
  f.header.loc.file = file;
  bool named = false, has_threads = false, has_grid = false;
  while (r.next_line()) {
    std::string_view what = r.token();
    if (has_grid) return r.bad("'" + std::string(what) + "' after the grid");
    if (what == "name" && !named) {
      TG_ASSIGN_OR_RETURN(f.header.name, r.name(r.token()));
      named = true;
    } else if (what == "threads" && named && !has_threads) {
      TG_ASSIGN_OR_RETURN(f.header.threads, r.integer(r.token()));
      has_threads = true;
    } else if (what == "param" && has_threads) {
      bool written = false;
      TG_ASSIGN_OR_RETURN(ir::Param p, decode_param(r, &written));
      p.loc.file = file;
      f.header.params.push_back(std::move(p));
      f.written.push_back(written);
    } else if (what == "grid" && has_threads) {
      TG_ASSIGN_OR_RETURN(int64_t n, r.integer(r.token()));
      if (n < 1 || n > 3) return r.bad("a grid of " + std::to_string(n) + " dimensions");
      for (int64_t i = 0; i < n; ++i) {
        TG_ASSIGN_OR_RETURN(ir::Expr g, r.expr());
        f.header.grid.push_back(std::move(g));
      }
      has_grid = true;
    } else {
      return r.bad("unexpected '" + std::string(what) + "'");
    }
    if (!r.line_done()) return r.bad("more than expected on the line");
  }
  if (!has_grid) return r.bad("no grid");
  return f;
}

Result<std::string> pack_cached_kernel(const KernelFacts& facts, const std::string& executable) {
  TG_ASSIGN_OR_RETURN(std::string text, encode_kernel_facts(facts));
  std::string out;
  out.reserve(8 + text.size() + executable.size());
  put_le64(out, text.size());
  out += text;
  out += executable;
  return out;
}

Result<CachedKernel> unpack_cached_kernel(std::string payload, const std::string& file) {
  if (payload.size() < 8) return error(ErrorCode::Corrupt, "kernel facts: the payload is " + std::to_string(payload.size()) + " bytes");
  uint64_t length = 0;
  for (int i = 0; i < 8; ++i) length |= uint64_t(uint8_t(payload[size_t(i)])) << (8 * i);
  if (length > payload.size() - 8)
    return error(ErrorCode::Corrupt, "kernel facts: " + std::to_string(length) + " bytes said, " +
                                         std::to_string(payload.size() - 8) + " there");
  CachedKernel c;
  TG_ASSIGN_OR_RETURN(c.facts, decode_kernel_facts(std::string_view(payload).substr(8, length), file));
  payload.erase(0, 8 + length);
  c.executable = std::move(payload);
  return c;
}

}  // namespace tegula::runtime
