/// \file
/// A small JSON value with a strict parser (errors carry line:column) and a canonical
/// writer. Used for plugin manifests, target descriptions and conformance reports. Object
/// keys keep their insertion order, so writing is deterministic and can be hashed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Status.h"

namespace tegula {

class Json {
public:
  enum class Kind : uint8_t { Null, Bool, Number, String, Array, Object };
  using Array = std::vector<Json>;
  using Member = std::pair<std::string, Json>;
  using Object = std::vector<Member>;

  Json() = default;  // null
  Json(std::nullptr_t) {}
  Json(bool b) : kind_(Kind::Bool), bool_(b) {}
  Json(int v) : kind_(Kind::Number), num_(v), int_(v), is_int_(true) {}
  Json(int64_t v) : kind_(Kind::Number), num_(double(v)), int_(v), is_int_(true) {}
  Json(uint64_t v) : Json(int64_t(v)) {}
  Json(double v) : kind_(Kind::Number), num_(v) {}
  Json(const char* s) : kind_(Kind::String), str_(s) {}
  Json(std::string s) : kind_(Kind::String), str_(std::move(s)) {}
  Json(std::string_view s) : kind_(Kind::String), str_(s) {}

  static Json array(Array items = {});
  static Json object(Object members = {});

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_number() const { return kind_ == Kind::Number; }
  /// A number written without fraction or exponent that fits in int64.
  bool is_int() const { return kind_ == Kind::Number && is_int_; }
  bool is_string() const { return kind_ == Kind::String; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_object() const { return kind_ == Kind::Object; }

  bool as_bool() const { return bool_; }
  double as_double() const { return num_; }
  /// The integer, or a non-integer number truncated and saturated to int64 (NaN gives 0):
  /// never undefined, whatever a document holds. Check is_int() where only integers are valid.
  int64_t as_int() const {
    if (is_int_) return int_;
    if (!(num_ == num_)) return 0;
    if (num_ >= 9223372036854775807.0) return INT64_MAX;
    if (num_ <= -9223372036854775808.0) return INT64_MIN;
    return int64_t(num_);
  }
  const std::string& as_string() const { return str_; }
  const Array& items() const { return arr_; }
  Array& items() { return arr_; }
  const Object& members() const { return obj_; }
  Object& members() { return obj_; }

  /// Object member lookup; nullptr when absent or when this is not an object.
  const Json* find(std::string_view key) const;
  /// Set (replace or append) an object member. This must be an object.
  Json& set(std::string key, Json value);
  /// Append to an array. This must be an array.
  Json& push(Json value);
  size_t size() const;

  /// Canonical text: no insignificant whitespace when indent < 0, else pretty-printed.
  /// Integers print as integers; other numbers as the shortest text that reads back to the
  /// same double (with ".0" added if it would look like an integer); NaN and Inf as null.
  std::string dump(int indent = -1) const;

  /// Parse a complete JSON document (RFC 8259, strictly: no comments, no trailing commas,
  /// valid UTF-8, no duplicate object keys, at most 512 levels of nesting). `file` names
  /// the input in error locations; columns count bytes from 1.
  static Result<Json> parse(std::string_view text, const std::string& file = "");

  bool operator==(const Json& other) const;

private:
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  double num_ = 0;
  int64_t int_ = 0;
  bool is_int_ = false;
  std::string str_;
  Array arr_;
  Object obj_;
};

}  // namespace tegula
