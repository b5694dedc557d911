/// \file
/// Tokens of the .tile text format. The lexer never fails hard: a character it cannot read
/// becomes an Error token whose text says why, and the parser reports it with its location.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.h"

namespace tegula::ir {

enum class Tok : uint8_t {
  End,
  Error,
  Ident,
  Int,
  Float,
  String,
  LParen, RParen, LBracket, RBracket, LBrace, RBrace,
  Comma, Colon, Assign, DotDot,
  Plus, Minus, Star, Slash, Percent,
  Lt, Le, Gt, Ge, EqEq, Ne, AndAnd, OrOr, Bang,
  Amp, Pipe, Caret, Tilde, Shl, Shr, ShrLogical,  // bit operators (ir/OpList.h)
};

struct Token {
  Tok kind = Tok::End;
  std::string text;  ///< identifier, literal spelling, string contents, or error message
  int64_t int_value = 0;
  double float_value = 0;
  int line = 1;
  int column = 1;
};

/// Split `source` into tokens; the last token is End (or the first Error).
std::vector<Token> tokenize(std::string_view source);

const char* token_name(Tok kind);

}  // namespace tegula::ir
