/// \file
/// Reading the string members of reports, worker replies and discovery answers: one
/// definition for every file that reads them.
#pragma once

#include <string>

#include "core/Json.h"

namespace tegula::conformance {

/// The member's string value; "" when it is absent or not a string.
inline std::string str(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && v->is_string() ? v->as_string() : "";
}

/// The member's number; 0 when it is absent or not a number.
inline double number(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && v->is_number() ? v->as_double() : 0;
}

}  // namespace tegula::conformance
