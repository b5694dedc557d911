// tegula run: a kernel on any device, through the runtime API, on seeded random inputs or
// on the user's own (.npy / .bin), checked against the example's direct computation or
// against the reference device, optionally timed over repeated launches.
#include <cstdint>
#include <cstdio>

#include "core/Files.h"
#include "examples/checks/Checks.h"
#include "ir/Parser.h"
#include "runtime/cli/Cli.h"
#include "runtime/cli/RunData.h"
#include "runtime/cli/Tunable.h"

namespace tegula::cli {
namespace {

struct RunArgs {
  std::string file;
  std::string device;  // "" = the first device
  std::string bind_text;
  uint64_t seed = 1;
  std::vector<std::string> inputs, outputs;  // NAME=FILE, parsed once the kernel is known
  bool print = false;
  int64_t repeat = 0;
  bool check_against_reference = false;
  std::string tune;  // a tunable kernel's binding; empty: the runtime chooses
};

/// Outputs printed by --print: enough to eyeball a small result.
constexpr int64_t kPrintLimit = 64;

Status parse_args(const std::vector<std::string>& args, RunArgs& out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--device") {
      TG_ASSIGN_OR_RETURN(out.device, option_value(args, i));
    } else if (a == "--tune") {
      TG_ASSIGN_OR_RETURN(out.tune, option_value(args, i));
    } else if (a == "--bind") {
      TG_ASSIGN_OR_RETURN(std::string v, option_value(args, i));
      out.bind_text += (out.bind_text.empty() ? "" : ",") + v;
    } else if (a == "--seed") {
      TG_ASSIGN_OR_RETURN(std::string v, option_value(args, i));
      TG_ASSIGN_OR_RETURN(out.seed, parse_unsigned(v, "--seed"));
    } else if (a == "--input" || a == "--output") {
      TG_ASSIGN_OR_RETURN(std::string v, option_value(args, i));
      (a == "--input" ? out.inputs : out.outputs).push_back(v);
    } else if (a == "--print") {
      out.print = true;
    } else if (a == "--repeat") {
      TG_ASSIGN_OR_RETURN(std::string v, option_value(args, i));
      TG_ASSIGN_OR_RETURN(uint64_t n, parse_unsigned(v, "--repeat"));
      if (n < 1 || n > 1000000) return error(ErrorCode::InvalidArgument, "--repeat: " + v + " is not in 1..1000000");
      out.repeat = int64_t(n);
    } else if (a == "--check-against") {
      TG_ASSIGN_OR_RETURN(std::string v, option_value(args, i));
      if (v != "reference")
        return error(ErrorCode::InvalidArgument, "--check-against: '" + v + "' is not a check (the one offered: reference)");
      out.check_against_reference = true;
    } else if (a.rfind("--", 0) == 0) {
      return error(ErrorCode::InvalidArgument, "unknown option '" + a + "' (tegula run --help lists them)");
    } else if (out.file.empty()) {
      out.file = a;
    } else {
      return error(ErrorCode::InvalidArgument, "one kernel file at a time ('" + out.file + "' and '" + a + "')");
    }
  }
  if (out.file.empty()) return error(ErrorCode::InvalidArgument, "no kernel file (tegula run --help)");
  return Status::ok();
}

/// The launch data: random inputs from the seed, then the files given, then the scalars.
Result<examples::LaunchData> prepare_data(const ir::Kernel& k, const RunArgs& args, std::vector<TensorFile>& inputs,
                                          std::vector<TensorFile>& outputs) {
  TG_ASSIGN_OR_RETURN(Bindings b, parse_run_bindings(k, args.bind_text));
  for (const std::string& text : args.inputs) {
    TG_ASSIGN_OR_RETURN(TensorFile f, parse_tensor_file(k, text, "--input"));
    inputs.push_back(f);
  }
  for (const std::string& text : args.outputs) {
    TG_ASSIGN_OR_RETURN(TensorFile f, parse_tensor_file(k, text, "--output"));
    outputs.push_back(f);
  }
  TG_RETURN_IF_ERROR(bind_symbols_from_inputs(k, inputs, b));
  TG_ASSIGN_OR_RETURN(examples::LaunchData data, examples::make_launch_data(k, b.symbols, args.seed));
  TG_RETURN_IF_ERROR(load_inputs(k, inputs, data));
  for (size_t i = 0; i < k.params.size(); ++i) {
    auto it = b.scalars.find(k.params[i].name);
    if (it != b.scalars.end()) data.scalars[i] = it->second;
  }
  return data;
}

}  // namespace

Result<DeviceRun> run_on_device(const Device& device, const std::string& text, const CompileOptions& options,
                                const ir::Kernel& k, examples::LaunchData& data, int64_t repeat) {
  TG_ASSIGN_OR_RETURN(Kernel kernel, device.compile(text, options));
  return run_compiled(device, kernel, k, data, repeat);
}

Result<DeviceRun> run_compiled(const Device& device, Kernel& kernel, const ir::Kernel& k, examples::LaunchData& data,
                               int64_t repeat) {
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
  DeviceRun run;
  if (auto t = kernel.tunables(); t.is_ok()) {
    run.binding = t->first;
    run.chosen_by = t->second;
  }
  // The outputs of one launch: repeats below may accumulate (atomic_add) into them.
  for (size_t i : data.outputs) {
    std::vector<uint8_t>& bytes = data.tensors[i].bytes;
    TG_RETURN_IF_ERROR(buffers[i].read(bytes.data(), bytes.size()));
  }
  if (repeat <= 0) return run;
  // The first launch compiled the variant these arguments select; the timed ones reuse it.
  TG_ASSIGN_OR_RETURN(Event start, device.create_event());
  TG_ASSIGN_OR_RETURN(Event end, device.create_event());
  TG_RETURN_IF_ERROR(start.record());
  for (int64_t r = 0; r < repeat; ++r) TG_RETURN_IF_ERROR(kernel.launch(launch_args));
  TG_RETURN_IF_ERROR(end.record());
  TG_RETURN_IF_ERROR(end.synchronize());
  TG_ASSIGN_OR_RETURN(double ms, Event::elapsed_ms(start, end));
  run.ms_per_launch = ms / double(repeat);
  return run;
}

int cmd_run(const std::vector<std::string>& argv) {
  RunArgs args;
  if (Status st = parse_args(argv, args); !st.is_ok()) return fail("run", st, 2);
  auto text = read_file(args.file, kMaxSourceBytes);
  if (!text.is_ok()) return fail("run", text.status());
  ir::TuneSpace space;
  auto k = parse_cli_kernel(*text, args.file, args.tune, &space);
  if (!k.is_ok()) return fail("run", k.status());
  CompileOptions options;
  options.source_name = args.file;
  options.tunables = args.tune;
  std::vector<TensorFile> inputs, outputs;
  auto data = prepare_data(*k, args, inputs, outputs);
  if (!data.is_ok()) return fail("run", data.status());
  examples::LaunchData reference_data = *data;  // the same inputs, for --check-against

  auto rt = open_runtime("run");
  if (!rt.is_ok()) return 1;
  auto device = pick_device(*rt, args.device, "run");
  if (!device.is_ok()) return 1;
  auto info = device->info();
  std::string device_name = info.is_ok() ? info->name : args.device;
  Result<Device> reference = error(ErrorCode::NotFound, "unused");
  if (args.check_against_reference) {
    reference = rt->find_device("reference");  // before running: a missing one fails fast
    if (!reference.is_ok()) return fail("run", reference.status().with_context("--check-against reference"));
  }
  auto run = run_on_device(*device, *text, options, *k, *data, args.repeat);
  if (!run.is_ok()) return fail("run", run.status());
  std::printf("ran %s on %s (seed %llu)\n", k->name.c_str(), device_name.c_str(), (unsigned long long)args.seed);
  if (!run->binding.empty()) std::printf("tunables %s (%s)\n", run->binding.c_str(), run->chosen_by.c_str());
  if (run->ms_per_launch >= 0)
    std::printf("%lld launches: %.6g ms per launch (device events)\n", (long long)args.repeat, run->ms_per_launch);
  if (Status st = write_outputs(*k, outputs, *data); !st.is_ok()) return fail("run", st);
  if (args.print) std::fputs(format_outputs(*k, *data, kPrintLimit).c_str(), stdout);

  if (args.check_against_reference) {
    options.tunables = run->binding;  // the same instance on both devices
    auto ran = run_on_device(*reference, *text, options, *k, reference_data, 0);
    if (!ran.is_ok()) return fail("run", ran.status().with_context("on the reference device"));
    examples::CheckResult check = compare_runs(*k, *data, reference_data);
    std::printf("compared with the reference device:\n");
    std::fputs(examples::format_check(check).c_str(), stdout);
    return check.passed ? 0 : 1;
  }
  if (!examples::has_direct_computation(*k)) {
    std::printf("no direct computation to compare with (--check-against reference compares with the reference "
                "device)\n");
    return 0;
  }
  auto check = examples::check_outputs(*k, *data);
  if (!check.is_ok()) return fail("run", check.status());
  std::fputs(examples::format_check(*check).c_str(), stdout);
  return check->passed ? 0 : 1;
}

}  // namespace tegula::cli
