#include "conformance/Worker.h"
#include "conformance/JsonFields.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "conformance/Executor.h"
#include "conformance/Suite.h"
#include "conformance/perf/PerfMeasure.h"
#include "conformance/Tolerances.h"
#include "core/Json.h"
#include "ir/Parser.h"
#include "tegula/tegula.hpp"

namespace tegula::conformance {
namespace {

constexpr int kReplyFd = 3;

struct DeviceState {
  DeviceContext ctx;
  TargetDescription target;
  std::vector<CaseSpec> cases;
  std::map<std::string, size_t> index;
  std::vector<PerfSpec> perf;  ///< built at the first "perf" command
  bool perf_large = false;     ///< the sizes `perf` was built for
};

struct OfflineState {
  std::vector<CaseSpec> cases;
  std::map<std::string, size_t> index;
};

class Worker {
public:
  explicit Worker(const WorkerOptions& o) : options_(o) {}

  Status open() {
    RuntimeOptions ro;
    ro.select_plugins = options_.plugin;
    ro.cache_dir = "off";
    TG_ASSIGN_OR_RETURN(runtime_, Runtime::open(ro));
    return Status::ok();
  }

  Json handle(const Json& cmd) {
    const Json* op = cmd.find("op");
    std::string o = op && op->is_string() ? op->as_string() : "";
    if (o == "hello") return hello(str(cmd, "device"));
    if (o == "devices") return devices();
    if (o == "run") return run(str(cmd, "device"), str(cmd, "case"));
    if (o == "probe") return probe(str(cmd, "plugin"), str(cmd, "target"));
    if (o == "offline") return offline(str(cmd, "plugin"), str(cmd, "target"), str(cmd, "case"));
    if (o == "perf") {
      const Json* large = cmd.find("large");
      return perf(str(cmd, "device"), str(cmd, "figure"), large && large->is_bool() && large->as_bool());
    }
    return error_reply("unknown command '" + o + "'");
  }

private:

  static Json error_reply(const std::string& message) {
    Json j = Json::object();
    j.set("error", message);
    return j;
  }

  Result<DeviceState*> device(const std::string& name) {
    auto it = devices_.find(name);
    if (it != devices_.end()) return it->second.get();
    TG_ASSIGN_OR_RETURN(Device d, runtime_.find_device(name));
    TG_RETURN_IF_ERROR(d.info().status());  // the device answers before its cases are built
    TG_ASSIGN_OR_RETURN(std::string json, d.target_json());
    TG_ASSIGN_OR_RETURN(TargetDescription target, parse_target(json, name + " target"));
    auto state = std::make_unique<DeviceState>();
    state->ctx.device = d;
    state->target = target;
    state->cases = build_suite(target);
    for (size_t i = 0; i < state->cases.size(); ++i) state->index[state->cases[i].name] = i;
    DeviceState* raw = state.get();
    devices_[name] = std::move(state);
    return raw;
  }

  Json hello(const std::string& name) {
    if (!name.empty()) {
      Result<DeviceState*> d = device(name);
      if (!d.is_ok()) return error_reply(d.status().message());
    }
    Json j = Json::object();
    j.set("ok", true);
    j.set("pid", int64_t(getpid()));
    return j;
  }

  Json devices() {
    Json j = Json::object();
    Json plugins = Json::array();
    for (size_t i = 0; i < tegula_runtime_plugin_count(runtime_.handle()); ++i) {
      tegula_plugin_info p{};
      p.struct_size = sizeof(p);
      if (tegula_error* e = tegula_runtime_get_plugin(runtime_.handle(), i, &p)) {
        tegula_error_free(e);
        continue;
      }
      Json x = Json::object();
      x.set("name", p.name);
      x.set("vendor", p.vendor);
      x.set("version", p.version);
      x.set("description", p.description);
      x.set("library_path", p.library_path);
      x.set("manifest_path", p.manifest_path);
      x.set("abi_version", int64_t(p.abi_version));
      x.set("device_count", int64_t(p.device_count));
      plugins.push(x);
    }
    j.set("plugins", plugins);
    Json devs = Json::array();
    for (const Device& d : runtime_.devices()) {
      Result<DeviceInfo> info = d.info();
      if (!info.is_ok()) continue;
      Json x = Json::object();
      x.set("name", info->name);
      x.set("plugin", info->plugin);
      x.set("plugin_version", info->plugin_version);
      x.set("device_name", info->device_name);
      x.set("vendor", info->vendor);
      x.set("driver_version", info->driver_version);
      x.set("toolkit_version", info->toolkit_version);
      x.set("memory_bytes", int64_t(info->memory_bytes));
      x.set("compute_units", int64_t(info->compute_units));
      x.set("device_type", int64_t(info->device_type));
      x.set("out_of_range", std::string(out_of_range_name(info->out_of_range)));
      x.set("target_name", info->target);
      Result<std::string> json = d.target_json();
      if (json.is_ok()) x.set("target_json", *json);
      else x.set("target_error", json.status().message());
      devs.push(x);
    }
    j.set("devices", devs);
    Json skipped = Json::array();
    for (const Skipped& s : runtime_.skipped()) {
      Json x = Json::object();
      x.set("source", s.source);
      x.set("plugin", s.plugin);
      x.set("reason", s.reason);
      skipped.push(x);
    }
    j.set("skipped", skipped);
    return j;
  }

  Json record_reply(const Record& r) {
    Json j = Json::object();
    j.set("record", r.to_json());
    return j;
  }

  Json run(const std::string& dev, const std::string& case_name) {
    Result<DeviceState*> d = device(dev);
    if (!d.is_ok()) return error_reply(d.status().message());
    auto it = (*d)->index.find(case_name);
    if (it == (*d)->index.end()) return error_reply("device " + dev + " has no case '" + case_name + "'");
    const CaseSpec& spec = (*d)->cases[it->second];
    if (!spec.unsupported.empty()) return record_reply(not_supported_record(spec));
    return record_reply(run_case((*d)->ctx, spec, options_.seed, Tolerances::builtin()));
  }

  Json perf(const std::string& dev, const std::string& figure, bool large) {
    Result<DeviceState*> d = device(dev);
    if (!d.is_ok()) return error_reply(d.status().message());
    DeviceState& state = **d;
    if (state.perf.empty() || state.perf_large != large) {
      state.perf = build_perf_suite(state.target, large);
      state.perf_large = large;
    }
    for (const PerfSpec& spec : state.perf) {
      if (spec.name != figure) continue;
      Json j = Json::object();
      j.set("figure", measure_figure(state.ctx.device, state.target, spec, options_.seed));
      return j;
    }
    return error_reply("device " + dev + " has no performance figure '" + figure + "'");
  }

  Result<OfflineState*> offline_suite(const std::string& target) {
    auto it = offline_.find(target);
    if (it != offline_.end()) return it->second.get();
    TG_ASSIGN_OR_RETURN(TargetDescription t, builtin_target(target));
    auto state = std::make_unique<OfflineState>();
    state->cases = build_offline_suite(t);
    for (size_t i = 0; i < state->cases.size(); ++i) state->index[state->cases[i].name] = i;
    OfflineState* raw = state.get();
    offline_[target] = std::move(state);
    return raw;
  }

  Json probe(const std::string& plugin, const std::string& target) {
    // The smallest kernel there is: a plugin that compiles it offline for the target offers
    // that target.
    const char* probe_kernel =
        "kernel probe(X: f32[N], Y: f32[N]) grid(ceildiv(N, 128)) threads(128) {\n"
        "  alloc t: fragment f32[128]\n  copy X[bx * 128], t\n  copy t, Y[bx * 128]\n}\n";
    Result<std::string> exe = runtime_.compile_offline(plugin, target, probe_kernel);
    Json j = Json::object();
    j.set("ok", exe.is_ok());
    if (!exe.is_ok()) {
      j.set("reason", exe.status().message());
      j.set("code", error_code_name(exe.status().code()));  // the parent tells "not offered" from a failure
    }
    return j;
  }

  Json offline(const std::string& plugin, const std::string& target, const std::string& case_name) {
    Result<OfflineState*> s = offline_suite(target);
    if (!s.is_ok()) return error_reply(s.status().message());
    auto it = (*s)->index.find(case_name);
    if (it == (*s)->index.end()) return error_reply("target " + target + " has no offline case '" + case_name + "'");
    return record_reply(run_offline_case(runtime_, plugin, (*s)->cases[it->second]));
  }

  WorkerOptions options_;
  Runtime runtime_;
  std::map<std::string, std::unique_ptr<DeviceState>> devices_;
  std::map<std::string, std::unique_ptr<OfflineState>> offline_;
};

void reply(const Json& j) {
  std::string line = j.dump() + "\n";
  int fd = ::fcntl(kReplyFd, F_GETFD) != -1 ? kReplyFd : STDOUT_FILENO;
  const char* p = line.data();
  size_t left = line.size();
  while (left) {
    ssize_t n = ::write(fd, p, left);
    if (n <= 0) return;
    p += n;
    left -= size_t(n);
  }
}

}  // namespace

int worker_main(const WorkerOptions& options) {
  // A worker never outlives the run that started it (even one stuck in a hung kernel).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) return 1;
  Worker w(options);
  Status st = w.open();
  std::string pending;
  char chunk[4096];
  for (;;) {
    size_t nl = pending.find('\n');
    if (nl == std::string::npos) {
      ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
      if (n <= 0) break;
      pending.append(chunk, size_t(n));
      continue;
    }
    std::string line = pending.substr(0, nl);
    pending.erase(0, nl + 1);
    if (line.empty()) continue;
    Result<Json> cmd = Json::parse(line, "<command>");
    Json answer;
    if (!st.is_ok()) {
      answer = Json::object();
      answer.set("error", "cannot open the runtime: " + st.message());
    } else if (!cmd.is_ok()) {
      answer = Json::object();
      answer.set("error", "malformed command: " + cmd.status().message());
    } else {
      answer = w.handle(*cmd);
    }
    reply(answer);
  }
  return 0;
}

}  // namespace tegula::conformance
