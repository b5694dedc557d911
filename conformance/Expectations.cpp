#include "conformance/Expectations.h"

#include <string>

#include "conformance/Glob.h"
#include "core/Files.h"

namespace tegula::conformance {
namespace {

Status bad(const std::string& source, const std::string& what) { return error(ErrorCode::Parse, source + ": " + what); }

}  // namespace

Result<ExpectationList> ExpectationList::parse(const std::string& text, const std::string& source) {
  TG_ASSIGN_OR_RETURN(Json doc, Json::parse(text, source));
  const Json* schema = doc.find("schema");
  if (!schema || !schema->is_string() || schema->as_string() != "tegula.conformance.expectations.v1")
    return bad(source, "schema must be \"tegula.conformance.expectations.v1\"");
  ExpectationList list;
  list.source = source;
  const Json* plugin = doc.find("plugin");
  if (!plugin || !plugin->is_string()) return bad(source, "'plugin' must be a string");
  list.plugin = plugin->as_string();
  const Json* entries = doc.find("expected_failures");
  if (!entries || !entries->is_array()) return bad(source, "'expected_failures' must be an array");
  for (size_t i = 0; i < entries->items().size(); ++i) {
    const Json& e = entries->items()[i];
    std::string where = "expected_failures[" + std::to_string(i) + "]";
    if (!e.is_object()) return bad(source, where + " must be an object");
    for (const auto& [key, value] : e.members()) {
      if (key != "cases" && key != "devices" && key != "reason" && key != "issue") return bad(source, where + ": unknown field '" + key + "'");
      if (!value.is_string()) return bad(source, where + "." + key + " must be a string");
    }
    Expectation x;
    const Json* cases = e.find("cases");
    const Json* reason = e.find("reason");
    if (!cases || cases->as_string().empty()) return bad(source, where + " needs 'cases' (a glob)");
    if (!reason || reason->as_string().empty()) return bad(source, where + " needs a 'reason'");
    x.cases = cases->as_string();
    x.reason = reason->as_string();
    if (const Json* d = e.find("devices")) x.devices = d->as_string();
    if (const Json* issue = e.find("issue")) x.issue = issue->as_string();
    list.entries.push_back(std::move(x));
  }
  return list;
}

Result<ExpectationList> ExpectationList::load(const std::string& dir, const std::string& plugin) {
  std::string path = dir + "/" + plugin + ".json";
  if (dir.empty() || !file_exists(path)) {
    ExpectationList none;
    none.plugin = plugin;
    return none;
  }
  TG_ASSIGN_OR_RETURN(std::string text, read_file(path));
  TG_ASSIGN_OR_RETURN(ExpectationList list, parse(text, path));
  if (list.plugin != plugin) return bad(path, "names plugin '" + list.plugin + "', expected '" + plugin + "'");
  return list;
}

const Expectation* ExpectationList::find(const std::string& device, const std::string& case_name) const {
  for (const Expectation& e : entries)
    if (glob_match(e.cases, case_name) && glob_match(e.devices, device)) return &e;
  return nullptr;
}

Json ExpectationList::to_json() const {
  Json j = Json::object();
  j.set("source", source);
  Json arr = Json::array();
  for (const Expectation& e : entries) {
    Json x = Json::object();
    x.set("cases", e.cases);
    x.set("devices", e.devices);
    x.set("reason", e.reason);
    x.set("issue", e.issue);
    arr.push(x);
  }
  j.set("expected_failures", arr);
  return j;
}

}  // namespace tegula::conformance
