/// \file
/// Private helpers for reading target descriptions out of a Json tree. Every helper takes a
/// JsonPath so that an error names the input and the exact place in it, e.g.
/// "sm_90a.json: matrix_instructions[3].m: expected an integer or a range, got a string".
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/DType.h"
#include "core/Json.h"
#include "core/Status.h"

namespace tegula {

/// Where a value sits in a description: the source name plus a dotted/indexed path.
class JsonPath {
public:
  explicit JsonPath(const std::string& source) : source_(&source) {}

  JsonPath field(std::string_view key) const;
  JsonPath item(size_t index) const;
  const std::string& str() const { return at_; }

  /// "source: path: message" (or "source: message" at the root), code Parse.
  Status fail(const std::string& message) const;

private:
  const std::string* source_;
  std::string at_;
};

const char* json_kind_name(Json::Kind kind);

/// The value must be an object whose keys all come from `allowed`; the first unknown key
/// is reported, so a misspelled field reads as "unknown field" rather than "missing field".
Status check_object(const Json& value, const JsonPath& path,
                    std::initializer_list<std::string_view> allowed);
/// The member `key` of an object that check_object() accepted, or a "missing field" error.
Result<const Json*> required_field(const Json& object, const JsonPath& path, std::string_view key);

Result<int64_t> read_int(const Json& value, const JsonPath& path, int64_t min, int64_t max);
Result<double> read_number(const Json& value, const JsonPath& path);
Result<std::string> read_string(const Json& value, const JsonPath& path);
/// An array (possibly empty) of strings.
Result<std::vector<std::string>> read_strings(const Json& value, const JsonPath& path);
/// A dtype name, or a non-empty array of them; names come from core/DType.h.
Result<std::vector<DType>> read_dtypes(const Json& value, const JsonPath& path);

/// Read a string naming one enumerator; `allowed` lists the choices for the error message.
template <typename E>
Result<E> read_enum(const Json& value, const JsonPath& path,
                    std::optional<E> (*parse)(std::string_view), const char* what,
                    const char* allowed) {
  TG_ASSIGN_OR_RETURN(std::string name, read_string(value, path));
  std::optional<E> parsed = parse(name);
  if (!parsed) return path.fail("unknown " + std::string(what) + " '" + name + "' (allowed: " + allowed + ")");
  return *parsed;
}

/// An array of enumerator names without repeats.
template <typename E>
Result<std::vector<E>> read_enum_list(const Json& value, const JsonPath& path,
                                      std::optional<E> (*parse)(std::string_view),
                                      const char* what, const char* allowed) {
  if (!value.is_array()) {
    return path.fail(std::string("expected an array, got ") + json_kind_name(value.kind()));
  }
  std::vector<E> out;
  for (size_t i = 0; i < value.items().size(); ++i) {
    TG_ASSIGN_OR_RETURN(E e, read_enum(value.items()[i], path.item(i), parse, what, allowed));
    for (E seen : out) {
      if (seen == e) return path.item(i).fail("'" + value.items()[i].as_string() + "' is listed twice");
    }
    out.push_back(e);
  }
  return out;
}

/// A copy with every object's members sorted by key: the canonical form that is hashed.
Json sorted_json(const Json& value);

}  // namespace tegula
