#include "core/Npy.h"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace tegula {
namespace {

const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

/// A cursor over the header dictionary, a Python literal such as
/// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
struct HeaderReader {
  const std::string& text;
  const std::string& name;
  size_t pos = 0;

  Status fail(const std::string& what) const {
    return error(ErrorCode::InvalidArgument, name + ": malformed .npy header (" + what + "): " + text);
  }
  void skip_space() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  }
  bool eat(char c) {
    skip_space();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  Result<std::string> quoted() {
    skip_space();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"')) return fail("expected a quoted string");
    char q = text[pos++];
    size_t end = text.find(q, pos);
    if (end == std::string::npos) return fail("unterminated string");
    std::string s = text.substr(pos, end - pos);
    pos = end + 1;
    return s;
  }
  Result<bool> boolean() {
    skip_space();
    for (const char* word : {"True", "False"}) {
      size_t n = std::strlen(word);
      if (text.compare(pos, n, word) == 0) {
        pos += n;
        return word[0] == 'T';
      }
    }
    return fail("expected True or False");
  }
  Result<std::vector<int64_t>> shape() {
    if (!eat('(')) return fail("the shape is not a tuple");
    std::vector<int64_t> dims;
    while (!eat(')')) {
      skip_space();
      if (pos >= text.size() || !std::isdigit(static_cast<unsigned char>(text[pos]))) return fail("a dimension is not a number");
      int64_t v = 0;
      while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
        if (v > (int64_t(1) << 50)) return fail("a dimension is too large");
        v = v * 10 + (text[pos++] - '0');
      }
      dims.push_back(v);
      if (!eat(',')) {
        if (!eat(')')) return fail("expected ',' or ')' in the shape");
        break;
      }
    }
    return dims;
  }
};

Result<NpyArray> parse_header(const std::string& header, const std::string& name) {
  HeaderReader r{header, name};
  NpyArray a;
  bool have_descr = false, have_order = false, have_shape = false, fortran = false;
  if (!r.eat('{')) return r.fail("not a dictionary");
  while (!r.eat('}')) {
    TG_ASSIGN_OR_RETURN(std::string key, r.quoted());
    if (!r.eat(':')) return r.fail("expected ':' after '" + key + "'");
    if (key == "descr" && !have_descr) {
      TG_ASSIGN_OR_RETURN(a.descr, r.quoted());
      have_descr = true;
    } else if (key == "fortran_order" && !have_order) {
      TG_ASSIGN_OR_RETURN(fortran, r.boolean());
      have_order = true;
    } else if (key == "shape" && !have_shape) {
      TG_ASSIGN_OR_RETURN(a.shape, r.shape());
      have_shape = true;
    } else {
      return r.fail("unexpected or repeated key '" + key + "'");
    }
    if (!r.eat(',')) {
      if (!r.eat('}')) return r.fail("expected ',' or '}'");
      break;
    }
  }
  if (!have_descr || !have_order || !have_shape) return r.fail("needs 'descr', 'fortran_order' and 'shape'");
  r.skip_space();  // the padding
  if (r.pos != header.size()) return r.fail("text after the dictionary");
  if (fortran) return error(ErrorCode::InvalidArgument, name + ": Fortran-order arrays are not supported (save it in C order)");
  return a;
}

}  // namespace

int64_t NpyArray::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::optional<std::string> npy_descr(DType t) {
  switch (t) {
    case DType::F64: return "<f8";
    case DType::F32: return "<f4";
    case DType::F16: return "<f2";
    case DType::I8: return "|i1";
    case DType::U8: return "|u1";
    case DType::I32: return "<i4";
    case DType::Bool: return "|b1";
    case DType::TF32:
    case DType::BF16:
    case DType::E4M3:
    case DType::E5M2:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return std::nullopt;
  }
  return std::nullopt;
}

Result<NpyArray> parse_npy(const std::string& bytes, const std::string& name) {
  if (bytes.size() < kMagicSize + 4 || bytes.compare(0, kMagicSize, kMagic, kMagicSize) != 0)
    return error(ErrorCode::InvalidArgument, name + ": not a .npy file (no \\x93NUMPY magic)");
  auto byte = [&](size_t i) { return uint32_t(static_cast<unsigned char>(bytes[i])); };
  uint32_t major = byte(6);
  size_t header_len = 0, header_start = 0;
  if (major == 1) {
    header_len = byte(8) | byte(9) << 8;
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return error(ErrorCode::InvalidArgument, name + ": truncated .npy header");
    header_len = byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24;
    header_start = 12;
  } else {
    return error(ErrorCode::InvalidArgument, name + ": .npy format version " + std::to_string(major) + "." +
                                                 std::to_string(byte(7)) + " is not supported (1.0 to 3.0 are)");
  }
  if (header_len > bytes.size() - header_start)
    return error(ErrorCode::InvalidArgument, name + ": truncated .npy header (" + std::to_string(header_len) +
                                                 " bytes announced, " + std::to_string(bytes.size() - header_start) +
                                                 " in the file)");
  TG_ASSIGN_OR_RETURN(NpyArray a, parse_header(bytes.substr(header_start, header_len), name));
  size_t data_start = header_start + header_len;
  a.data = bytes.substr(data_start);
  // The element size is the descr's last digits ("<f4": 4); the caller checks the type.
  size_t digits = a.descr.find_first_of("0123456789");
  int64_t esize = digits == std::string::npos ? 0 : std::atoll(a.descr.c_str() + digits);
  if (esize <= 0) return error(ErrorCode::InvalidArgument, name + ": .npy descr '" + a.descr + "' has no element size");
  int64_t want = a.numel() * esize;
  if (int64_t(a.data.size()) != want)
    return error(ErrorCode::InvalidArgument, name + ": the .npy data holds " + std::to_string(a.data.size()) +
                                                 " bytes; shape and descr '" + a.descr + "' need " + std::to_string(want));
  return a;
}

std::string format_npy(const std::string& descr, const std::vector<int64_t>& shape, const std::string& data) {
  std::string dims;  // "3, 4", but "3," for one dimension, as Python writes tuples
  for (size_t d = 0; d < shape.size(); ++d) dims += (d ? ", " : "") + std::to_string(shape[d]);
  if (shape.size() == 1) dims += ",";
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Padded with spaces and a newline so the data starts at a multiple of 64.
  size_t total = kMagicSize + 4 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, kMagicSize);
  out += char(1);
  out += char(0);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  return out + header + data;
}

}  // namespace tegula
