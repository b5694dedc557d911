#include "conformance/Executor.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "conformance/Inputs.h"
#include "conformance/Oracle.h"
#include "core/Sha256.h"

namespace tegula::conformance {
namespace {

using Clock = std::chrono::steady_clock;

Record base_record(const CaseSpec& spec) {
  Record r;
  r.name = spec.name;
  r.row = spec.row;
  r.shape = spec.symbols;
  r.kernel_sha256 = sha256_hex(spec.kernel);
  return r;
}

Record& fail(Record& r, const std::string& check, const std::string& detail) {
  r.outcome = Outcome::Fail;
  r.check = check;
  r.detail = detail;
  return r;
}

/// One device buffer per tensor: canary, data, canary. The data starts `lead` bytes in:
/// the guard, plus the case's misalignment of that tensor.
struct Buffers {
  std::vector<Buffer> buffers;  ///< per parameter (empty handle for scalars)
  std::vector<uint64_t> lead;   ///< per parameter

  uint64_t size(size_t i, size_t data) const { return lead[i] + data + kGuardBytes; }
  std::vector<uint8_t> image(size_t i, const std::vector<uint8_t>& data) const {
    std::vector<uint8_t> out(size(i, data.size()));
    for (size_t k = 0; k < out.size(); ++k) out[k] = kCanary[k % 8];
    std::memcpy(out.data() + lead[i], data.data(), data.size());
    return out;
  }
};

std::string index_text(const std::vector<int64_t>& shape, size_t element) {
  std::vector<int64_t> idx(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    idx[i] = int64_t(element) % shape[i];
    element /= size_t(shape[i]);
  }
  std::string s = "[";
  for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
  return s + "]";
}

/// Launch once from the given contents; `read` gets every buffer's whole image back.
Status launch_once(const DeviceContext& ctx, Kernel& kernel, const HostCase& h, const CaseSpec& spec, Buffers& bufs,
                   std::vector<std::vector<uint8_t>>& read, std::string& stage) {
  std::vector<Arg> args;
  stage = "launch";
  for (size_t i = 0; i < h.kernel.params.size(); ++i) {
    const ir::Param& p = h.kernel.params[i];
    if (!p.is_tensor) {
      args.push_back(dtype_is_float(p.dtype) ? Arg::number(spec.scalars[i]) : Arg::integer(int64_t(spec.scalars[i])));
      continue;
    }
    TG_RETURN_IF_ERROR(bufs.buffers[i].write(bufs.image(i, h.initial[i])));
    args.push_back(Arg::tensor(bufs.buffers[i], bufs.lead[i]));
  }
  for (int64_t s : h.symbols) args.push_back(Arg::integer(s));
  TG_RETURN_IF_ERROR(kernel.launch(args));
  TG_RETURN_IF_ERROR(ctx.device.synchronize());
  read.assign(h.kernel.params.size(), {});
  for (size_t i = 0; i < h.kernel.params.size(); ++i) {
    if (!h.kernel.params[i].is_tensor) continue;
    read[i].resize(bufs.size(i, h.initial[i].size()));
    TG_RETURN_IF_ERROR(bufs.buffers[i].read(read[i].data(), read[i].size()));
  }
  return Status::ok();
}

/// Guards and inputs; "" when both are intact, else the failure's detail (check in `check`).
std::string check_guards_and_inputs(const HostCase& h, const CaseSpec& spec, const Buffers& bufs,
                                    const std::vector<std::vector<uint8_t>>& read, std::string& check) {
  for (size_t i = 0; i < h.kernel.params.size(); ++i) {
    const ir::Param& p = h.kernel.params[i];
    if (!p.is_tensor) continue;
    const std::vector<uint8_t>& img = read[i];
    size_t data = h.initial[i].size(), lead = bufs.lead[i];
    for (size_t b = 0; b < lead; ++b) {
      if (img[b] != kCanary[b % 8]) {
        check = "guard";
        return "out-of-bounds write: the guard region " + std::to_string(lead - b) + " bytes before tensor " + p.name +
               " was overwritten";
      }
    }
    for (size_t b = 0; b < kGuardBytes; ++b) {
      size_t t = lead + data + b;
      if (img[t] != kCanary[t % 8]) {
        check = "guard";
        return "out-of-bounds write: the guard region " + std::to_string(b) + " bytes past the end of tensor " + p.name +
               " (" + std::to_string(data) + " bytes) was overwritten";
      }
    }
    if (spec.tensors[i].role != Role::Input) continue;
    if (std::memcmp(img.data() + lead, h.initial[i].data(), data) != 0) {
      size_t size = dtype_size(p.dtype);
      size_t at = 0;
      while (at < data && img[lead + at] == h.initial[i][at]) ++at;
      size_t element = at / size;
      check = "input";
      return "input tensor " + p.name + " was changed at " + index_text(h.shapes[i], element) + ": was " +
             describe_element(p.dtype, h.initial[i].data() + element * size) + ", now " +
             describe_element(p.dtype, img.data() + lead + element * size);
    }
  }
  return "";
}

std::vector<uint8_t> data_of(const std::vector<uint8_t>& image, uint64_t lead, size_t size) {
  return std::vector<uint8_t>(image.begin() + int64_t(lead), image.begin() + int64_t(lead + size));
}

/// The instruction check on the executable that ran: "" when its code holds the mnemonic
/// (a note goes to `note`), else the failure's detail, including when the plugin cannot
/// show its code: a forced instruction nobody could see is not a pass. Call it right after
/// the case's launch: launches specialise the kernel (alignment, shape divisibility), and
/// describe() shows the variant the most recent launch ran.
std::string check_instruction(const Kernel& kernel, const CaseSpec& spec, std::string& note) {
  if (spec.mnemonic.empty()) return "";
  Result<std::string> text = kernel.describe();  // the variant launch_once just ran
  if (!text.is_ok()) {
    return spec.instruction + " was forced, but the plugin cannot show the compiled code, so it could not be inspected (" +
           text.status().message() + ")";
  }
  std::string found;
  if (contains_mnemonic(*text, spec.mnemonic, &found)) {
    note = "; emits " + found;
    return "";
  }
  return "the compiled code does not contain " + spec.mnemonic + " (" + spec.instruction + " was forced)";
}

/// The case's kernel, compiled now (bypassing the compile cache) or earlier in this worker.
Result<std::shared_ptr<Kernel>> compiled(DeviceContext& ctx, const CaseSpec& spec) {
  constexpr size_t kKeep = 16;
  auto it = ctx.kernels.find(spec.kernel);
  if (it != ctx.kernels.end()) return it->second;
  CompileOptions options;
  options.source_name = spec.name;
  options.use_cache = false;
  TG_ASSIGN_OR_RETURN(Kernel k, ctx.device.compile(spec.kernel, options));
  auto shared = std::make_shared<Kernel>(std::move(k));
  if (ctx.kernel_order.size() >= kKeep) {
    ctx.kernels.erase(ctx.kernel_order.front());
    ctx.kernel_order.erase(ctx.kernel_order.begin());
  }
  ctx.kernels[spec.kernel] = shared;
  ctx.kernel_order.push_back(spec.kernel);
  return shared;
}

/// Every buffer's whole image, read back (after a launch that failed, which launch_once
/// does not read).
Status read_back(const HostCase& h, const Buffers& bufs, std::vector<std::vector<uint8_t>>& read) {
  read.assign(h.kernel.params.size(), {});
  for (size_t i = 0; i < h.kernel.params.size(); ++i) {
    if (!h.kernel.params[i].is_tensor) continue;
    read[i].resize(bufs.size(i, h.initial[i].size()));
    TG_RETURN_IF_ERROR(bufs.buffers[i].read(read[i].data(), read[i].size()));
  }
  return Status::ok();
}

/// An erroneous case (CaseSpec::out_of_range), judged by what the device declares: detected
/// (the launch or its synchronize fails), silent (it succeeds, stores outside are dropped
/// and loads outside read 0) or, not run, undefined and undeclared. Either way nothing
/// outside the tensors may change and inputs stay as they were. The detail says what the
/// device declares, so the report records it.
Record& judge_out_of_range(DeviceContext& ctx, Kernel& kernel, const HostCase& h, const CaseSpec& spec, Buffers& bufs, Record& r) {
  Result<DeviceInfo> info = ctx.device.info();
  uint32_t declared = info.is_ok() ? info->out_of_range : uint32_t(TEGULA_OUT_OF_RANGE_UNDECLARED);
  std::string says = std::string("the device declares out-of-range accesses ") + out_of_range_name(declared);
  if (declared != TEGULA_OUT_OF_RANGE_DETECTED && declared != TEGULA_OUT_OF_RANGE_SILENT) {
    r.outcome = Outcome::NotSupported;
    r.detail = says + ": an erroneous kernel is not run on it";
    return r;
  }
  std::vector<std::vector<uint8_t>> read;
  std::string stage;
  Status launched = launch_once(ctx, kernel, h, spec, bufs, read, stage);
  if (launched.is_ok() && declared == TEGULA_OUT_OF_RANGE_DETECTED)
    return fail(r, "out_of_range", says + ", but the launch of a kernel that accesses past its tensor succeeded");
  if (!launched.is_ok() && declared == TEGULA_OUT_OF_RANGE_SILENT)
    return fail(r, "out_of_range", says + ", but the " + stage + " failed: " + launched.message());
  if (!launched.is_ok()) {
    (void)ctx.device.synchronize();
    Status st = read_back(h, bufs, read);
    if (!st.is_ok()) return fail(r, "launch", "reading the buffers back after the refused launch: " + st.message());
  }
  std::string check;
  std::string why = check_guards_and_inputs(h, spec, bufs, read, check);
  if (!why.empty()) return fail(r, check, says + ", and " + why);
  if (declared == TEGULA_OUT_OF_RANGE_SILENT) {
    for (size_t i = 0; i < h.kernel.params.size(); ++i) {
      const ir::Param& p = h.kernel.params[i];
      if (!p.is_tensor || spec.tensors[i].role == Role::Input) continue;
      std::vector<uint8_t> want = h.initial[i];
      size_t size = dtype_size(p.dtype);
      if (spec.silent_value)
        for (size_t at = 0; at + size <= want.size(); at += size) store_element(p.dtype, *spec.silent_value, want.data() + at);
      std::vector<uint8_t> got = data_of(read[i], bufs.lead[i], want.size());
      int64_t at = first_difference(want, got);
      if (at < 0) continue;
      size_t element = size_t(at) / size;
      return fail(r, "out_of_range",
                  says + ", but " + p.name + index_text(h.shapes[i], element) + " is " + describe_element(p.dtype, got.data() + element * size) +
                      " where dropped stores and loads of 0 leave " + describe_element(p.dtype, want.data() + element * size));
    }
  }
  r.outcome = Outcome::Pass;
  r.detail = says + (launched.is_ok() ? ": the launch succeeded, nothing outside the tensors changed"
                                      : ": the launch failed (" + launched.message() + "), nothing outside the tensors changed");
  return r;
}

}  // namespace

bool contains_mnemonic(const std::string& text, const std::string& pattern, std::string* found) {
  size_t end = 0;
  // A ranged dimension is written as its lowercase letter and the uppercase one (m64nNk16);
  // any other uppercase letter is literal (OpCooperativeMatrixMulAddKHR).
  auto wildcard = [&](size_t i) {
    char c = pattern[i];
    return (c == 'M' || c == 'N' || c == 'K') && i > 0 && pattern[i - 1] == char(c - 'A' + 'a');
  };
  auto match_at = [&](size_t pos) {
    size_t t = pos;
    for (size_t i = 0; i < pattern.size(); ++i) {
      char c = pattern[i];
      if (wildcard(i)) {
        size_t start = t;
        while (t < text.size() && text[t] >= '0' && text[t] <= '9') ++t;
        if (t == start) return false;
        continue;
      }
      if (t >= text.size() || text[t] != c) return false;
      ++t;
    }
    end = t;
    return true;
  };
  if (pattern.empty()) return true;
  for (size_t pos = 0; pos < text.size(); ++pos) {
    if (!match_at(pos)) continue;
    if (found) *found = text.substr(pos, end - pos);
    return true;
  }
  return false;
}

Record not_supported_record(const CaseSpec& spec) {
  Record r = base_record(spec);
  r.outcome = Outcome::NotSupported;
  r.detail = spec.unsupported;
  return r;
}

Record run_case(DeviceContext& ctx, const CaseSpec& spec, uint64_t run_seed, const Tolerances& table) {
  Clock::time_point start = Clock::now();
  Record r = base_record(spec);
  r.seed = run_seed;
  auto finish = [&](Record& rec) -> Record {
    rec.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    return rec;
  };
  Result<HostCase> host = prepare_host_case(spec, run_seed);
  if (!host.is_ok()) return finish(fail(r, "oracle", host.status().message()));
  const HostCase& h = *host;

  Result<std::shared_ptr<Kernel>> kernel = compiled(ctx, spec);
  if (!kernel.is_ok()) return finish(fail(r, "compile", kernel.status().message()));

  Buffers bufs;
  bufs.buffers.resize(h.kernel.params.size());
  bufs.lead.assign(h.kernel.params.size(), kGuardBytes);
  for (size_t i = 0; i < h.kernel.params.size(); ++i) {
    if (!h.kernel.params[i].is_tensor) continue;
    if (i < spec.misalign.size()) bufs.lead[i] += uint64_t(spec.misalign[i]) * dtype_size(h.kernel.params[i].dtype);
    Result<Buffer> b = ctx.device.alloc(bufs.size(i, h.initial[i].size()));
    if (!b.is_ok()) return finish(fail(r, "launch", "allocating " + h.kernel.params[i].name + ": " + b.status().message()));
    bufs.buffers[i] = std::move(b).value();
  }

  if (spec.out_of_range) return finish(judge_out_of_range(ctx, **kernel, h, spec, bufs, r));

  std::vector<std::vector<uint8_t>> first, second;
  std::string stage;
  Status st = launch_once(ctx, **kernel, h, spec, bufs, first, stage);
  if (!st.is_ok()) return finish(fail(r, stage, st.message()));
  std::string check;
  std::string why = check_guards_and_inputs(h, spec, bufs, first, check);
  if (!why.empty()) return finish(fail(r, check, why));

  Comparison total;
  std::vector<std::vector<uint8_t>> outputs(h.kernel.params.size());
  for (size_t i = 0; i < h.kernel.params.size(); ++i) {
    const ir::Param& p = h.kernel.params[i];
    if (!p.is_tensor || spec.tensors[i].role == Role::Input) continue;
    outputs[i] = data_of(first[i], bufs.lead[i], h.initial[i].size());
    TensorView view{p.name, p.dtype, h.shapes[i], &h.expected[i], &outputs[i], h.magnitude.empty() ? nullptr : &h.magnitude[i]};
    total.merge(compare_tensor(view, spec, table));
  }
  r.elements = total.elements;
  r.mismatches = total.mismatches;
  r.max_abs = total.max_abs, r.max_rel = total.max_rel, r.max_ulp = total.max_ulp;
  r.first_mismatch = total.first;
  if (total.mismatches) {
    const Mismatch& m = *total.first;
    std::string at;
    for (size_t k = 0; k < m.index.size(); ++k) at += (k ? ", " : "") + std::to_string(m.index[k]);
    return finish(fail(r, "values", std::to_string(total.mismatches) + " of " + std::to_string(total.elements) +
                                        " elements differ; first " + m.tensor + "[" + at + "]: expected " + m.expected + ", got " +
                                        m.actual));
  }

  st = launch_once(ctx, **kernel, h, spec, bufs, second, stage);
  if (!st.is_ok()) return finish(fail(r, stage, "second run: " + st.message()));
  why = check_guards_and_inputs(h, spec, bufs, second, check);
  if (!why.empty()) return finish(fail(r, check, "second run: " + why));
  for (size_t i = 0; i < h.kernel.params.size(); ++i) {
    const ir::Param& p = h.kernel.params[i];
    if (!p.is_tensor || spec.tensors[i].role == Role::Input) continue;
    std::vector<uint8_t> again = data_of(second[i], bufs.lead[i], h.initial[i].size());
    int64_t at = first_difference(outputs[i], again);
    if (at < 0) continue;
    size_t size = dtype_size(p.dtype), element = size_t(at) / size;
    return finish(fail(r, "nondeterminism",
                       "two runs from the same inputs differ: " + p.name + index_text(h.shapes[i], element) + " was " +
                           describe_element(p.dtype, outputs[i].data() + element * size) + ", then " +
                           describe_element(p.dtype, again.data() + element * size)));
  }

  std::string note;
  why = check_instruction(**kernel, spec, note);
  if (!why.empty()) return finish(fail(r, "instruction", why));
  r.outcome = total.quality_misses ? Outcome::QualityWarning : Outcome::Pass;
  r.detail = total.quality_misses ? std::to_string(total.quality_misses) +
                                        " elements within tolerance but above the quality bound" + note
                                  : (note.empty() ? "" : note.substr(2));
  return finish(r);
}

Record run_offline_case(Runtime& runtime, const std::string& plugin, const CaseSpec& spec) {
  Clock::time_point start = Clock::now();
  Record r = base_record(spec);
  auto finish = [&](Record& rec) -> Record {
    rec.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    return rec;
  };
  Result<std::string> exe = runtime.compile_offline(plugin, spec.offline_target, spec.kernel);
  if (!exe.is_ok()) return finish(fail(r, "compile", exe.status().message()));
  r.outcome = Outcome::CompileOnly;
  if (spec.mnemonic.empty()) {
    r.detail = "compiled for " + spec.offline_target + " (" + std::to_string(exe->size()) + " bytes)";
    return finish(r);
  }
  Result<std::string> text = runtime.describe_executable(plugin, *exe);
  if (!text.is_ok())
    return finish(fail(r, "instruction", spec.instruction + " was forced, but the plugin cannot show the code compiled for " +
                                             spec.offline_target + ", so it could not be inspected (" + text.status().message() + ")"));
  std::string found;
  if (!contains_mnemonic(*text, spec.mnemonic, &found))
    return finish(fail(r, "instruction", "the code compiled for " + spec.offline_target + " does not contain " + spec.mnemonic +
                                             " (" + spec.instruction + " was forced)"));
  r.detail = "compiled for " + spec.offline_target + "; emits " + found;
  return finish(r);
}

}  // namespace tegula::conformance
