// tegula devices / plugins / targets.
#include <cstdint>
#include <cstdio>

#include "runtime/cli/Cli.h"
#include "targets/Target.h"

namespace tegula::cli {
namespace {

std::string format_bytes(uint64_t bytes) {
  if (bytes == 0) return "unknown";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char text[32];
  std::snprintf(text, sizeof(text), u ? "%.1f %s" : "%.0f %s", v, units[u]);
  return text;
}

void note_skipped(const Runtime& rt) {
  size_t n = rt.skipped().size();
  if (n) std::fprintf(stderr, "note: %zu plugin(s) or device(s) skipped; 'tegula plugins' says why\n", n);
}

}  // namespace

Result<Runtime> open_runtime(const char* command) {
  Result<Runtime> rt = Runtime::open();
  if (!rt.is_ok()) {
    std::fprintf(stderr, "tegula %s: %s\n", command, rt.status().message().c_str());
    return rt;
  }
  // Mistakes in the environment are said at once, not only by 'tegula plugins'.
  for (const Skipped& s : rt->skipped())
    if (s.source == "search path" || s.source == "TEGULA_DISABLE_PLUGINS")
      std::fprintf(stderr, "tegula %s: warning: %s: %s\n", command, s.source.c_str(), s.reason.c_str());
  return rt;
}

Result<Device> pick_device(const Runtime& rt, const std::string& name, const char* command) {
  if (name.empty()) {
    Result<Device> d = rt.default_device();
    if (!d.is_ok()) std::fprintf(stderr, "tegula %s: %s\n", command, d.status().message().c_str());
    return d;
  }
  Result<Device> d = rt.find_device(name);
  if (!d.is_ok()) std::fprintf(stderr, "tegula %s: %s\n", command, d.status().message().c_str());
  return d;
}

int cmd_devices(const std::vector<std::string>& args) {
  if (!args.empty()) return command_usage("devices");
  auto rt = open_runtime("devices");
  if (!rt.is_ok()) return 1;
  std::vector<Device> devices = rt->devices();
  if (devices.empty()) {
    std::printf("no devices\n");
    note_skipped(*rt);
    return 0;
  }
  // OUT-OF-RANGE: what the device does with an element access outside its tensor, as its
  // plugin declares it (detected, silent, undefined, undeclared).
  std::printf("%-14s %-20s %-16s %-34s %-10s %s\n", "DEVICE", "PLUGIN", "TARGET", "NAME", "MEMORY", "OUT-OF-RANGE");
  for (const Device& d : devices) {
    auto info = d.info();
    if (!info.is_ok()) continue;
    std::string plugin = info->plugin + " " + info->plugin_version;
    std::printf("%-14s %-20s %-16s %-34s %-10s %s\n", info->name.c_str(), plugin.c_str(), info->target.c_str(),
                info->device_name.c_str(), format_bytes(info->memory_bytes).c_str(), out_of_range_name(info->out_of_range));
  }
  note_skipped(*rt);
  return 0;
}

namespace {

/// One line of a listing from text a plugin chose: control characters (newlines included)
/// are written as escapes, so no plugin can add lines to the listing or drive the terminal.
std::string escaped_line(const char* text) {
  std::string out;
  for (const char* p = text ? text : ""; *p; ++p) {
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else out.push_back(char(c));
  }
  return out;
}

}  // namespace

int cmd_plugins(const std::vector<std::string>& args) {
  if (!args.empty()) return command_usage("plugins");
  auto rt = open_runtime("plugins");
  if (!rt.is_ok()) return 1;
  size_t n = tegula_runtime_plugin_count(rt->handle());
  std::printf("%zu plugin(s) loaded\n", n);
  for (size_t i = 0; i < n; ++i) {
    tegula_plugin_info p;
    p.struct_size = sizeof(p);
    if (tegula_error* e = tegula_runtime_get_plugin(rt->handle(), i, &p)) {
      tegula_error_free(e);
      continue;
    }
    std::printf("  %s %s (%s), ABI %u, %u device(s)%s\n    %s\n    library  %s\n    manifest %s\n", escaped_line(p.name).c_str(),
                escaped_line(p.version).c_str(), escaped_line(p.vendor).c_str(), p.abi_version, p.device_count,
                p.concurrent_compile ? ", compiles side by side" : "",
                escaped_line(p.description).c_str(), escaped_line(p.library_path).c_str(), escaped_line(p.manifest_path).c_str());
  }
  std::vector<Skipped> skipped = rt->skipped();
  std::printf("%zu skipped\n", skipped.size());
  for (const Skipped& s : skipped) std::printf("  %s: %s\n", escaped_line(s.source.c_str()).c_str(), escaped_line(s.reason.c_str()).c_str());
  return 0;
}

int cmd_targets(const std::vector<std::string>& args) {
  std::string name, device;
  bool device_flag = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--device") {
      device_flag = true;
      auto v = option_value(args, i);
      if (!v.is_ok()) return fail("targets", v.status(), 2);
      device = *v;
    } else if (args[i].rfind("--", 0) == 0 || !name.empty()) {
      return command_usage("targets");
    } else {
      name = args[i];
    }
  }
  if (device_flag) {
    if (!name.empty()) return command_usage("targets");
    auto rt = open_runtime("targets");
    if (!rt.is_ok()) return 1;
    auto d = pick_device(*rt, device, "targets");
    if (!d.is_ok()) return 1;
    auto json = d->target_json();
    if (!json.is_ok()) {
      std::fprintf(stderr, "tegula targets: %s\n", json.status().message().c_str());
      return 1;
    }
    auto info = d->info();
    auto t = parse_target(*json, info.is_ok() ? info->name : "device");
    if (!t.is_ok()) {
      std::fprintf(stderr, "tegula targets: %s\n", t.status().message().c_str());
      return 1;
    }
    std::fputs(describe_target(*t).c_str(), stdout);
    return 0;
  }
  if (name.empty()) {
    for (const std::string& n : builtin_target_names()) std::printf("%s\n", n.c_str());
    return 0;
  }
  auto t = builtin_target(name);
  if (!t.is_ok()) {
    std::string known;
    for (const std::string& n : builtin_target_names()) known += (known.empty() ? "" : ", ") + n;
    std::fprintf(stderr, "tegula targets: no built-in target '%s'; built in: %s\n", name.c_str(), known.c_str());
    return 1;
  }
  std::fputs(describe_target(*t).c_str(), stdout);
  return 0;
}

}  // namespace tegula::cli
