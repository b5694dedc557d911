#include "conformance/perf/PerfRun.h"

#include <chrono>
#include <cstdio>
#include <vector>

#include "conformance/JsonFields.h"
#include "conformance/perf/PerfMeasure.h"
#include "conformance/perf/PerfSuite.h"

namespace tegula::conformance {

Json run_device_perf(const PerfCall& call, const TargetDescription& target) {
  std::vector<PerfSpec> specs = select_figures(build_perf_suite(target, call.large), call.filter);
  Json figures = Json::array();
  std::vector<Json> measured(specs.size());
  if (call.model) {
    for (const PerfSpec& s : specs)
      figures.push(unmeasured_figure(s, kModelNotMeasured));
  } else {
    std::vector<Json> jobs;
    std::vector<size_t> job_spec;
    for (size_t i = 0; i < specs.size(); ++i) {
      if (!specs[i].unsupported.empty()) {
        measured[i] = unmeasured_figure(specs[i], specs[i].unsupported);
        continue;
      }
      Json j = Json::object();
      j.set("op", "perf");
      j.set("device", call.device);
      j.set("figure", specs[i].name);
      j.set("large", call.large);  // the worker builds the same suite, at the same sizes
      jobs.push_back(j);
      job_spec.push_back(i);
    }
    size_t done = 0;
    auto last = std::chrono::steady_clock::now();
    run_jobs(call.worker, jobs, 1, call.timeout_s, [&](size_t job, const JobResult& r) {
      size_t i = job_spec[job];
      const Json* f = r.replied ? r.reply.find("figure") : nullptr;
      if (f && f->is_object() && f->find("name") && f->find("name")->is_string() && f->find("name")->as_string() == specs[i].name) {
        measured[i] = *f;
      } else if (r.replied) {
        const Json* e = r.reply.find("error");
        measured[i] = unmeasured_figure(specs[i], e && e->is_string() ? e->as_string() : "malformed worker reply: " + r.reply.dump());
      } else {
        measured[i] = unmeasured_figure(specs[i], std::string(outcome_name(r.outcome)) + ": " + r.detail);
      }
      if (!call.quiet) {
        const Json* value = measured[i].find("value");
        auto now = std::chrono::steady_clock::now();
        double seconds = std::chrono::duration<double>(now - last).count();
        last = now;
        std::fprintf(stderr, "%s perf %zu/%zu %s: %s %s (%.1f s)\n", call.device.c_str(), ++done, jobs.size(), specs[i].name.c_str(),
                     value ? value->dump().c_str() : "not measured", value ? str(measured[i], "unit").c_str() : "", seconds);
      }
    });
    for (Json& m : measured) figures.push(m);
  }
  Json out = Json::object();
  out.set("profile", call.model ? "none" : call.large ? "accelerator" : "host");
  out.set("figures", figures);
  return out;
}

}  // namespace tegula::conformance
