// tegula run: a kernel on any device, through the runtime API, checked against the
// example's direct computation.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/Files.h"
#include "examples/checks/Checks.h"
#include "ir/Parser.h"
#include "runtime/cli/Cli.h"

namespace tegula::cli {
namespace {

struct RunArgs {
  std::string file;
  std::string device;  // "" = the first device
  std::string bind_text;
  uint64_t seed = 1;
};

/// 0 when parsed, else the exit code.
int parse_args(const std::vector<std::string>& args, RunArgs& out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool has_value = i + 1 < args.size();
    if (a == "--device" && has_value) {
      out.device = args[++i];
    } else if (a == "--bind" && has_value) {
      out.bind_text += (out.bind_text.empty() ? "" : ",") + args[++i];
    } else if (a == "--seed" && has_value) {
      out.seed = std::strtoull(args[++i].c_str(), nullptr, 10);
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "tegula run: unknown option '%s'\n", a.c_str());
      return 2;
    } else if (out.file.empty()) {
      out.file = a;
    } else {
      return usage();
    }
  }
  return out.file.empty() ? usage() : 0;
}

/// Copies `data` to device buffers, launches, waits and reads the outputs back.
Status run_on_device(const Device& device, const std::string& text, const RunArgs& args, const ir::Kernel& k,
                     examples::LaunchData& data) {
  CompileOptions options;
  options.source_name = args.file;
  TG_ASSIGN_OR_RETURN(Kernel kernel, device.compile(text, options));
  std::vector<Buffer> buffers(k.params.size());
  std::vector<Arg> launch_args;
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (!p.is_tensor) {
      launch_args.push_back(dtype_is_float(p.dtype) ? Arg::number(data.scalars[i])
                                                    : Arg::integer(int64_t(data.scalars[i])));
      continue;
    }
    const std::vector<uint8_t>& bytes = data.tensors[i].bytes;
    TG_ASSIGN_OR_RETURN(buffers[i], device.alloc(bytes.size()));
    // Outputs too: they hold poison, so an element the kernel forgets to write shows.
    TG_RETURN_IF_ERROR(buffers[i].write(bytes));
    launch_args.push_back(Arg::tensor(buffers[i]));
  }
  for (int64_t s : data.symbols) launch_args.push_back(Arg::integer(s));
  TG_RETURN_IF_ERROR(kernel.launch(launch_args));
  TG_RETURN_IF_ERROR(device.synchronize());
  for (size_t i : data.outputs) {
    std::vector<uint8_t>& bytes = data.tensors[i].bytes;
    TG_RETURN_IF_ERROR(buffers[i].read(bytes.data(), bytes.size()));
  }
  return Status::ok();
}

}  // namespace

int cmd_run(const std::vector<std::string>& argv) {
  RunArgs args;
  if (int rc = parse_args(argv, args)) return rc;
  auto text = read_file(args.file, kMaxSourceBytes);
  if (!text.is_ok()) {
    std::fprintf(stderr, "tegula run: %s\n", text.status().message().c_str());
    return 1;
  }
  auto k = ir::parse_and_verify(*text, args.file);
  if (!k.is_ok()) {
    std::fprintf(stderr, "%s\n", k.status().str().c_str());
    return 1;
  }
  auto rt = open_runtime("run");
  if (!rt.is_ok()) return 1;
  auto device = pick_device(*rt, args.device, "run");
  if (!device.is_ok()) return 1;
  auto info = device->info();
  std::string device_name = info.is_ok() ? info->name : args.device;
  auto bindings = examples::parse_bindings(args.bind_text);
  if (!bindings.is_ok()) {
    std::fprintf(stderr, "tegula run: %s\n", bindings.status().message().c_str());
    return 2;
  }
  auto data = examples::make_launch_data(*k, *bindings, args.seed);
  if (!data.is_ok()) {
    std::fprintf(stderr, "tegula run: %s\n", data.status().message().c_str());
    return 1;
  }

  Status st = run_on_device(*device, *text, args, *k, *data);
  if (!st.is_ok()) {
    std::fprintf(stderr, "tegula run: %s\n", st.str().c_str());
    return 1;
  }
  std::printf("ran %s on %s (seed %llu)\n", k->name.c_str(), device_name.c_str(), (unsigned long long)args.seed);
  if (!examples::has_direct_computation(*k)) {
    std::printf("no direct computation to compare with\n");
    return 0;
  }
  auto check = examples::check_outputs(*k, *data);
  if (!check.is_ok()) {
    std::fprintf(stderr, "tegula run: %s\n", check.status().message().c_str());
    return 1;
  }
  std::fputs(examples::format_check(*check).c_str(), stdout);
  return check->passed ? 0 : 1;
}

}  // namespace tegula::cli
