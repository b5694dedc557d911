#include "conformance/Report.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "conformance/Glob.h"
#include "core/Sha256.h"

namespace tegula::conformance {

std::vector<std::string> apply_expectations(const ExpectationList& list, const std::string& device, std::vector<Record>& records) {
  std::vector<std::string> unexpected_passes;
  for (Record& r : records) {
    r.expected_failure.clear();
    const Expectation* e = list.find(device, r.name);
    if (!e) continue;
    if (is_failure(r.outcome)) r.expected_failure = e->reason + (e->issue.empty() ? "" : " (" + e->issue + ")");
    else if (is_success(r.outcome)) unexpected_passes.push_back(r.name);
  }
  return unexpected_passes;
}

Json outcome_counts(const std::vector<Record>& records) {
  int64_t counts[kNumOutcomes] = {};
  for (const Record& r : records) ++counts[int(r.outcome)];
  Json j = Json::object();
  for (int i = 0; i < kNumOutcomes; ++i) j.set(outcome_name(Outcome(i)), Json(counts[i]));
  return j;
}

void derive_device(Json& device, const std::vector<Record>& records, const std::vector<std::string>& unexpected_passes,
                   bool untestable) {
  int64_t expected = 0, unexpected = untestable ? 1 : 0;
  for (const Record& r : records) {
    if (!is_failure(r.outcome)) continue;
    if (r.expected_failure.empty()) ++unexpected;
    else ++expected;
  }
  device.set("counts", outcome_counts(records));
  device.set("expected_failures", Json(expected));
  device.set("unexpected_failures", Json(unexpected));
  Json passes = Json::array();
  for (const std::string& n : unexpected_passes) passes.push(Json(n));
  device.set("unexpected_passes", passes);
}

std::vector<std::string> stale_expectations(const ExpectationList& list,
                                            const std::vector<std::pair<std::string, std::vector<std::string>>>& device_cases) {
  std::vector<std::string> stale;
  for (const Expectation& e : list.entries) {
    bool judged = false, used = false;
    for (const auto& [device, names] : device_cases) {
      if (!glob_match(e.devices, device)) continue;
      judged = true;  // a device it names ran: its case list decides
      for (const std::string& n : names)
        if (glob_match(e.cases, n)) used = true;
    }
    if (judged && !used) stale.push_back(e.cases);
  }
  return stale;
}

Json derive_summary(const Json& report) {
  int64_t counts[kNumOutcomes] = {};
  int64_t expected = 0, unexpected = 0, unexpected_passes = 0, stale = 0;
  if (const Json* devices = report.find("devices"); devices && devices->is_array()) {
    for (const Json& d : devices->items()) {
      if (const Json* c = d.find("counts"); c && c->is_object())
        for (int i = 0; i < kNumOutcomes; ++i)
          if (const Json* v = c->find(outcome_name(Outcome(i))); v && v->is_number()) counts[i] += v->as_int();
      if (const Json* v = d.find("expected_failures"); v && v->is_number()) expected += v->as_int();
      if (const Json* v = d.find("unexpected_failures"); v && v->is_number()) unexpected += v->as_int();
      if (const Json* v = d.find("unexpected_passes"); v && v->is_array()) unexpected_passes += int64_t(v->size());
    }
  }
  if (const Json* plugins = report.find("plugins"); plugins && plugins->is_array())
    for (const Json& p : plugins->items())
      if (const Json* s = p.find("stale_expectations"); s && s->is_array()) stale += int64_t(s->size());
  bool strict = false;
  if (const Json* run = report.find("run"))
    if (const Json* s = run->find("strict"); s && s->is_bool()) strict = s->as_bool();
  bool conformant = unexpected == 0 && (!strict || (unexpected_passes == 0 && stale == 0));
  Json s = Json::object();
  Json c = Json::object();
  for (int i = 0; i < kNumOutcomes; ++i) c.set(outcome_name(Outcome(i)), Json(counts[i]));
  s.set("counts", c);
  s.set("expected_failures", Json(expected));
  s.set("unexpected_failures", Json(unexpected));
  s.set("unexpected_passes", Json(unexpected_passes));
  s.set("stale_expectations", Json(stale));
  s.set("verdict", conformant ? "conformant" : "not conformant");
  s.set("exit_status", Json(conformant ? 0 : 1));
  return s;
}

std::string integrity_hash(const Json& report) {
  Json copy = report;
  Json::Object& members = copy.members();
  std::erase_if(members, [](const Json::Member& m) { return m.first == "integrity"; });
  return sha256_hex(copy.dump());
}

Result<std::vector<Record>> device_records(const Json& device) {
  std::vector<Record> out;
  const Json* records = device.find("records");
  if (!records || !records->is_array()) return error(ErrorCode::Parse, "a device has no records array");
  for (const Json& r : records->items()) {
    TG_ASSIGN_OR_RETURN(Record rec, Record::from_json(r));
    out.push_back(std::move(rec));
  }
  return out;
}

}  // namespace tegula::conformance
