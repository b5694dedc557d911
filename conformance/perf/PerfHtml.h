/// \file
/// The performance section of report.html: per device a roofline (the declared memory and
/// compute roofs, each measured figure that computes at its arithmetic intensity) and a
/// table of figures with a bar for the share of the declared peak each reaches.
#pragma once

#include <string>

#include "core/Json.h"

namespace tegula::conformance {

/// "" for a report without performance figures.
std::string performance_html(const Json& report);

}  // namespace tegula::conformance
