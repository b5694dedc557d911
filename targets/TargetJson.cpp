/// \file
/// Implementation of the description-reading helpers.
#include "targets/TargetJson.h"

#include <algorithm>
#include <cstdint>

namespace tegula {

JsonPath JsonPath::field(std::string_view key) const {
  JsonPath out = *this;
  if (!out.at_.empty()) out.at_ += ".";
  out.at_ += key;
  return out;
}

JsonPath JsonPath::item(size_t index) const {
  JsonPath out = *this;
  out.at_ += "[" + std::to_string(index) + "]";
  return out;
}

Status JsonPath::fail(const std::string& message) const {
  std::string where = at_.empty() ? *source_ : *source_ + ": " + at_;
  return error(ErrorCode::Parse, where + ": " + message);
}

const char* json_kind_name(Json::Kind kind) {
  switch (kind) {
    case Json::Kind::Null: return "null";
    case Json::Kind::Bool: return "a boolean";
    case Json::Kind::Number: return "a number";
    case Json::Kind::String: return "a string";
    case Json::Kind::Array: return "an array";
    case Json::Kind::Object: return "an object";
  }
  return "an unknown value";
}

Status check_object(const Json& value, const JsonPath& path,
                    std::initializer_list<std::string_view> allowed) {
  if (!value.is_object()) {
    return path.fail(std::string("expected an object, got ") + json_kind_name(value.kind()));
  }
  for (const Json::Member& m : value.members()) {
    if (std::find(allowed.begin(), allowed.end(), m.first) != allowed.end()) continue;
    return path.fail("unknown field '" + m.first + "'");
  }
  return Status::ok();
}

Result<const Json*> required_field(const Json& object, const JsonPath& path, std::string_view key) {
  const Json* member = object.find(key);
  if (member == nullptr) return path.fail("missing field '" + std::string(key) + "'");
  return member;
}

Result<int64_t> read_int(const Json& value, const JsonPath& path, int64_t min, int64_t max) {
  if (!value.is_int()) {
    std::string got = value.is_number() ? "a non-integer number" : json_kind_name(value.kind());
    return path.fail("expected an integer, got " + got);
  }
  int64_t v = value.as_int();
  if (v < min || v > max) {
    return path.fail(std::to_string(v) + " is out of range [" + std::to_string(min) + ", " +
                     std::to_string(max) + "]");
  }
  return v;
}

Result<double> read_number(const Json& value, const JsonPath& path) {
  if (!value.is_number()) {
    return path.fail(std::string("expected a number, got ") + json_kind_name(value.kind()));
  }
  return value.as_double();
}

Result<std::string> read_string(const Json& value, const JsonPath& path) {
  if (!value.is_string()) {
    return path.fail(std::string("expected a string, got ") + json_kind_name(value.kind()));
  }
  return value.as_string();
}

Result<std::vector<std::string>> read_strings(const Json& value, const JsonPath& path) {
  if (!value.is_array()) {
    return path.fail(std::string("expected an array, got ") + json_kind_name(value.kind()));
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < value.items().size(); ++i) {
    TG_ASSIGN_OR_RETURN(std::string s, read_string(value.items()[i], path.item(i)));
    out.push_back(std::move(s));
  }
  return out;
}

static const char* kDTypeNames = "f64 f32 tf32 f16 bf16 e4m3 e5m2 i8 u8 i32 bool";

Result<std::vector<DType>> read_dtypes(const Json& value, const JsonPath& path) {
  if (value.is_string()) {
    TG_ASSIGN_OR_RETURN(DType t, read_enum(value, path, parse_dtype, "dtype", kDTypeNames));
    return std::vector<DType>{t};
  }
  if (!value.is_array()) {
    return path.fail(std::string("expected a dtype name or an array of them, got ") +
                     json_kind_name(value.kind()));
  }
  if (value.items().empty()) return path.fail("expected at least one dtype");
  return read_enum_list(value, path, parse_dtype, "dtype", kDTypeNames);
}

Json sorted_json(const Json& value) {
  if (value.is_array()) {
    Json::Array items;
    for (const Json& item : value.items()) items.push_back(sorted_json(item));
    return Json::array(std::move(items));
  }
  if (!value.is_object()) return value;
  Json::Object members;
  for (const Json::Member& m : value.members()) members.emplace_back(m.first, sorted_json(m.second));
  std::sort(members.begin(), members.end(),
            [](const Json::Member& a, const Json::Member& b) { return a.first < b.first; });
  return Json::object(std::move(members));
}

}  // namespace tegula
