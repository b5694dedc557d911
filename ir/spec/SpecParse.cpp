// The spec statement's parser (ir/spec/SpecAst.h): a hand-written recursive descent over a
// tiny lexer, one token of lookahead. Precedence: unary minus > `* /` > `+ -`.
#include <cctype>

#include "ir/spec/SpecAst.h"

namespace tegula::ir::spec {

Status spec_error(int column, const std::string& message) {
  return error(ErrorCode::InvalidArgument, message, SourceLoc{"spec", 1, column});
}

void collect_refs(const Expr& e, std::vector<const Expr*>* refs) {
  if (e.kind == Expr::Kind::Ref) refs->push_back(&e);
  for (const Expr& a : e.args) collect_refs(a, refs);
}

namespace {

struct Token {
  enum class Kind { Ident, Number, Punct, End };
  Kind kind = Kind::End;
  std::string text;
  int column = 0;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) { advance(); }

  Result<Statement> statement() {
    Statement s;
    TG_ASSIGN_OR_RETURN(s.out, primary());
    if (s.out.kind != Expr::Kind::Ref)
      return spec_error(s.out.column, "the statement must start with the output, as in C[m, n] = ...");
    if (tok_.text == "+=") {
      s.accumulate = true;
    } else if (tok_.text != "=") {
      return spec_error(tok_.column, "expected '=' or '+=' after the output, found " + describe());
    }
    advance();
    TG_ASSIGN_OR_RETURN(s.rhs, sum());
    if (tok_.kind != Token::Kind::End) return spec_error(tok_.column, "unexpected " + describe() + " after the expression");
    return s;
  }

 private:
  std::string describe() const {
    return tok_.kind == Token::Kind::End ? std::string("the end of the spec") : "'" + tok_.text + "'";
  }

  void advance() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    tok_ = Token{};
    tok_.column = int(pos_) + 1;
    if (pos_ >= text_.size()) return;
    size_t start = pos_;
    char c = text_[pos_];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
      tok_.kind = Token::Kind::Ident;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' ||
                                     ((text_[pos_] == '-' || text_[pos_] == '+') && (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E'))))
        ++pos_;
      tok_.kind = Token::Kind::Number;
    } else {
      pos_ += (c == '+' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '=') ? 2 : 1;
      tok_.kind = Token::Kind::Punct;
    }
    tok_.text = std::string(text_.substr(start, pos_ - start));
  }

  Status expect(const char* punct) {
    if (tok_.text != punct) return spec_error(tok_.column, std::string("expected '") + punct + "', found " + describe());
    advance();
    return Status::ok();
  }

  Result<Expr> sum() {
    TG_ASSIGN_OR_RETURN(Expr lhs, product());
    while (tok_.text == "+" || tok_.text == "-") {
      Expr b;
      b.kind = Expr::Kind::Binary;
      b.op = tok_.text[0];
      b.column = tok_.column;
      advance();
      TG_ASSIGN_OR_RETURN(Expr rhs, product());
      b.args = {std::move(lhs), std::move(rhs)};
      lhs = std::move(b);
    }
    return lhs;
  }

  Result<Expr> product() {
    TG_ASSIGN_OR_RETURN(Expr lhs, unary());
    while (tok_.text == "*" || tok_.text == "/") {
      Expr b;
      b.kind = Expr::Kind::Binary;
      b.op = tok_.text[0];
      b.column = tok_.column;
      advance();
      TG_ASSIGN_OR_RETURN(Expr rhs, unary());
      b.args = {std::move(lhs), std::move(rhs)};
      lhs = std::move(b);
    }
    return lhs;
  }

  Result<Expr> unary() {
    if (tok_.text != "-") return primary();
    Expr n;
    n.kind = Expr::Kind::Neg;
    n.column = tok_.column;
    advance();
    TG_ASSIGN_OR_RETURN(Expr a, unary());
    n.args.push_back(std::move(a));
    return n;
  }

  Result<Expr> primary() {
    Expr e;
    e.column = tok_.column;
    if (tok_.kind == Token::Kind::Number) {
      e.kind = Expr::Kind::Number;
      e.number = tok_.text;
      advance();
      return e;
    }
    if (tok_.text == "(") {
      advance();
      TG_ASSIGN_OR_RETURN(e, sum());
      TG_RETURN_IF_ERROR(expect(")"));
      return e;
    }
    if (tok_.kind != Token::Kind::Ident) return spec_error(tok_.column, "expected a tensor, number or call, found " + describe());
    e.name = tok_.text;
    advance();
    if (e.name == "cast" && tok_.text == "<") {
      advance();
      if (tok_.kind != Token::Kind::Ident) return spec_error(tok_.column, "expected a dtype after 'cast<'");
      e.kind = Expr::Kind::Cast;
      e.name = tok_.text;
      advance();
      TG_RETURN_IF_ERROR(expect(">"));
      TG_RETURN_IF_ERROR(expect("("));
      TG_ASSIGN_OR_RETURN(Expr a, sum());
      e.args.push_back(std::move(a));
      TG_RETURN_IF_ERROR(expect(")"));
      return e;
    }
    if (tok_.text == "[") return ref(std::move(e));
    if (tok_.text == "(") return call(std::move(e));
    e.kind = Expr::Kind::Name;
    return e;
  }

  Result<Expr> ref(Expr e) {
    e.kind = Expr::Kind::Ref;
    advance();
    while (true) {
      if (tok_.kind != Token::Kind::Ident)
        return spec_error(tok_.column, "expected an index name in " + e.name + "[...], found " + describe());
      e.indices.push_back(tok_.text);
      e.index_columns.push_back(tok_.column);
      advance();
      if (tok_.text == "]") break;
      TG_RETURN_IF_ERROR(expect(","));
    }
    advance();
    return e;
  }

  Result<Expr> call(Expr e) {
    e.kind = Expr::Kind::Call;
    advance();
    while (true) {
      TG_ASSIGN_OR_RETURN(Expr a, sum());
      e.args.push_back(std::move(a));
      if (tok_.text == ")") break;
      TG_RETURN_IF_ERROR(expect(","));
    }
    advance();
    return e;
  }

  std::string_view text_;
  size_t pos_ = 0;
  Token tok_;
};

}  // namespace

Result<Statement> parse_statement(std::string_view text) { return Parser(text).statement(); }

}  // namespace tegula::ir::spec
