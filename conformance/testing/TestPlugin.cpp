/// \file
/// Test plugins for the conformance suite's own tests, built only with the tests: the
/// reference interpreter (plugins/reference) behind a function table that breaks it in one
/// chosen way, so the tests can show each breakage is caught with the right result code.
///
///   TG_TEST_PLUGIN_NAME   the plugin's name
///   TG_TEST_BREAKAGE      wrong        flip a bit in the last tensor after every launch  -> Fail (values)
///                         oob          write one byte past the last tensor's end         -> Fail (guard)
///                         input        change the first tensor's first byte              -> Fail (input)
///                         crash        raise SIGSEGV in launch                           -> Crash
///                         hang         never return from launch                          -> Timeout
///                         flaky        flip a bit on every second launch                 -> Fail (nondeterminism)
///                         offline      correct, and compiles offline for sm_80 and sm_90a, describing the
///                                      instructions lowering chose                        -> CompileOnly
///                         liar         like offline, but describes every gemm as fma      -> Fail (instruction)
///                         narrow       correct; its device claims no bf16, e4m3 or e5m2   -> NotSupported
///                         opaque       compiles offline for sm_80 but cannot describe code -> Fail (instruction);
///                                      its compiler fails on sm_90a with an internal error -> untestable target
///                         nanskip      leaves every element of the last tensor whose result is a NaN as it
///                                      was before the launch (never writes NaNs)           -> Fail (values)
///                         zerosign     writes +0 for every -0 of the last float tensor, as a max or min
///                                      that ignores the sign of zero would                 -> Fail (values)
///                         loadcrash    raises SIGSEGV in tg_plugin_query                  -> Crash at discovery
///                         loadhang     never returns from tg_plugin_query                 -> Timeout at discovery
///                         blind        declares out-of-range accesses detected but drops the launch's
///                                      error                                              -> Fail (out_of_range)
///                         undefined    correct; declares out-of-range accesses undefined (as CUDA does)
///                                                                                         -> NotSupported (out_of_range)
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Signature.h"
#include "ir/Lower.h"
#include "plugins/reference/Reference.h"
#include "targets/Target.h"

namespace ref = tegula::reference;
using namespace tegula;

#define TG_BREAK_wrong 1
#define TG_BREAK_oob 2
#define TG_BREAK_input 3
#define TG_BREAK_crash 4
#define TG_BREAK_hang 5
#define TG_BREAK_flaky 6
#define TG_BREAK_offline 7
#define TG_BREAK_liar 8
#define TG_BREAK_narrow 9
#define TG_BREAK_opaque 10
#define TG_BREAK_nanskip 11
#define TG_BREAK_zerosign 12
#define TG_BREAK_loadcrash 13
#define TG_BREAK_loadhang 14
#define TG_BREAK_blind 15
#define TG_BREAK_undefined 16
#define TG_CAT2(a, b) a##b
#define TG_CAT(a, b) TG_CAT2(a, b)
#define BREAKAGE TG_CAT(TG_BREAK_, TG_TEST_BREAKAGE)

namespace {

/// The tensor arguments of a launch: where each starts and how many bytes it has.
struct Tensor {
  uint8_t* data = nullptr;
  uint64_t bytes = 0;
  DType dtype = DType::F32;
};

[[maybe_unused]] std::vector<Tensor> tensors(tg_executable* exe, const tg_launch_params* params) {
  std::vector<ir::Arg> args;
  for (size_t i = 0; i < params->arg_count; ++i) {
    const tg_launch_arg& a = params->args[i];
    if (a.kind == TG_ARG_BUFFER) args.push_back(ir::Arg::tensor(a.buffer->data + a.offset, a.buffer->size - a.offset));
    else if (a.kind == TG_ARG_I64) args.push_back(ir::Arg::integer(a.i64));
    else args.push_back(ir::Arg::number(a.f64));
  }
  std::vector<Tensor> out;
  for (size_t i = 0; i < exe->kernel.params.size() && i < args.size(); ++i) {
    if (!exe->kernel.params[i].is_tensor) continue;
    Result<uint64_t> bytes = ir::tensor_bytes(exe->kernel, i, args);
    out.push_back({static_cast<uint8_t*>(args[i].data), bytes.is_ok() ? *bytes : 0, exe->kernel.params[i].dtype});
  }
  return out;
}

/// Replace the last tensor's middle element with a different, ordinary value: zero, or
/// one where it was zero (never a NaN, which any NaN would match).
[[maybe_unused]] void corrupt_last(const std::vector<Tensor>& t) {
  if (t.empty() || !t.back().bytes) return;
  size_t size = dtype_size(t.back().dtype);
  uint8_t* e = t.back().data + (t.back().bytes / size / 2) * size;
  bool zero = true;
  for (size_t i = 0; i < size; ++i) zero = zero && e[i] == 0;
  if (zero) store_element(t.back().dtype, 1.0, e);
  else std::memset(e, 0, size);
}

tg_error* launch(tg_queue* queue, tg_executable* exe, const tg_launch_params* params) {
#if BREAKAGE == TG_BREAK_crash
  (void)queue, (void)exe, (void)params;
  ::raise(SIGSEGV);
  return nullptr;
#elif BREAKAGE == TG_BREAK_hang
  (void)queue, (void)exe, (void)params;
  for (;;) ::pause();
#else
#if BREAKAGE == TG_BREAK_nanskip
  std::vector<Tensor> before_t = tensors(exe, params);
  std::vector<uint8_t> before;
  if (!before_t.empty()) before.assign(before_t.back().data, before_t.back().data + before_t.back().bytes);
#endif
  tg_error* e = ref::launch(queue, exe, params);
#if BREAKAGE == TG_BREAK_blind
  // Declares out-of-range accesses detected, as the reference does, but reports no launch
  // error: the interpreter stopped at the bad access, and the launch "succeeds".
  if (e) {
    ref::error_destroy(e);
    return nullptr;
  }
#endif
  if (e) return e;
  std::vector<Tensor> t = tensors(exe, params);
#if BREAKAGE == TG_BREAK_nanskip
  if (!t.empty() && dtype_is_float(t.back().dtype) && before.size() == t.back().bytes) {
    size_t size = dtype_size(t.back().dtype);
    for (size_t off = 0; off + size <= before.size(); off += size)
      if (std::isnan(load_element(t.back().dtype, t.back().data + off))) std::memcpy(t.back().data + off, before.data() + off, size);
  }
#endif
#if BREAKAGE == TG_BREAK_wrong
  corrupt_last(t);
#elif BREAKAGE == TG_BREAK_oob
  if (!t.empty()) t.back().data[t.back().bytes] ^= 0xff;
#elif BREAKAGE == TG_BREAK_input
  if (!t.empty() && t.front().bytes) t.front().data[0] ^= 0x01;
#elif BREAKAGE == TG_BREAK_zerosign
  if (!t.empty() && dtype_is_float(t.back().dtype)) {
    size_t size = dtype_size(t.back().dtype);
    for (uint64_t off = 0; off + size <= t.back().bytes; off += size) {
      double v = load_element(t.back().dtype, t.back().data + off);
      if (v == 0 && std::signbit(v)) store_element(t.back().dtype, 0.0, t.back().data + off);
    }
  }
#elif BREAKAGE == TG_BREAK_flaky
  static std::atomic<uint64_t> launches{0};
  if (++launches % 2 == 0) corrupt_last(t);
#endif
  (void)t;
  return nullptr;
#endif
}

tg_error* get_info(tg_plugin_info* out) {
  tg_error* e = ref::get_info(out);
  if (!e) {
    out->name = TG_TEST_PLUGIN_NAME;
    out->description = "a conformance test plugin: the reference interpreter, broken on purpose (" TG_TEST_BREAKAGE_NAME ")";
  }
  return e;
}

/// The offline plugins stand for code-generating backends, so their device says CPU rather
/// than software model (tools do not probe a model's offline targets).
tg_error* device_properties(tg_plugin* plugin, uint32_t index, tg_device_properties* out) {
  tg_error* e = ref::device_properties(plugin, index, out);
#if BREAKAGE == TG_BREAK_offline || BREAKAGE == TG_BREAK_liar || BREAKAGE == TG_BREAK_opaque
  if (!e) out->device_type = TG_DEVICE_TYPE_CPU;
#endif
#if BREAKAGE == TG_BREAK_undefined
  if (!e) out->out_of_range = TG_OUT_OF_RANGE_UNDEFINED;
#endif
  return e;
}

#if BREAKAGE == TG_BREAK_narrow
/// The reference description without bf16, e4m3 and e5m2.
const std::string& narrow_target() {
  static const std::string json = [] {
    std::string s = ref::target_json();
    for (const char* drop : {"\"bf16\", ", "\"e4m3\", ", "\"e5m2\", "}) {
      for (size_t p; (p = s.find(drop)) != std::string::npos;) s.erase(p, std::strlen(drop));
    }
    return s;
  }();
  return json;
}

tg_error* device_target(tg_plugin* plugin, uint32_t index, tg_target_description* out) {
  tg_error* e = ref::device_target(plugin, index, out);
  if (!e) {
    out->data = narrow_target().data();
    out->size = narrow_target().size();
  }
  return e;
}
#else
tg_error* device_target(tg_plugin* plugin, uint32_t index, tg_target_description* out) {
  return ref::device_target(plugin, index, out);
}
#endif

#if BREAKAGE == TG_BREAK_offline || BREAKAGE == TG_BREAK_liar || BREAKAGE == TG_BREAK_opaque
/// An "executable" for a target with no device here: a header naming the target, then the
/// lowered IR. Only sm_80 and sm_90a are offered.
constexpr char kOfflineMagic[] = "tgofflineexe\n";

tg_error* blob_of(std::string text, tg_blob* out) {
  auto* bytes = new std::string(std::move(text));
  out->struct_size = sizeof(tg_blob);
  out->next = nullptr;
  out->data = bytes->data();
  out->size = bytes->size();
  out->opaque = bytes;
  return nullptr;
}

tg_error* compile_offline(tg_plugin* plugin, const tg_target_description* target, const tg_compile_request* request,
                          tg_blob* out) {
  if (!plugin || !target || !request || !out) return ref::make_error(TG_ERR_INVALID_ARGUMENT, "compile_offline: bad argument");
  Result<TargetDescription> t = parse_target(std::string_view(target->data, target->size), "offline target");
  if (!t.is_ok()) return ref::make_error(TG_ERR_INVALID_ARGUMENT, "compile_offline: " + t.status().message());
  if (BREAKAGE == TG_BREAK_opaque && t->name == "sm_90a")
    return ref::make_error(TG_ERR_INTERNAL, "compile_offline: this test plugin's compiler fails on sm_90a on purpose");
  if (t->name != "sm_80" && t->name != "sm_90a")
    return ref::make_error(TG_ERR_UNSUPPORTED, "compile_offline: this test plugin compiles only for sm_80 and sm_90a");
  std::string_view ir(static_cast<const char*>(request->ir_data), request->ir_size);
  Result<ir::Kernel> k = ir::read_lowered(ir, "<offline>");
  if (!k.is_ok()) return ref::make_error(TG_ERR_COMPILE, "compile_offline: " + k.status().message());
  return blob_of(kOfflineMagic + t->name + "\n" + std::string(ir), out);
}
#endif

#if BREAKAGE == TG_BREAK_offline || BREAKAGE == TG_BREAK_liar

/// One line per gemm: the catalogue mnemonic of the instruction lowering chose, with its
/// N filled in (the liar says fma for all of them).
tg_error* executable_describe(tg_plugin* plugin, const void* data, size_t size, tg_blob* out) {
  if (!plugin || !out) return ref::make_error(TG_ERR_INVALID_ARGUMENT, "executable_describe: bad argument");
  std::string bytes(static_cast<const char*>(data), size);
  if (bytes.rfind(kOfflineMagic, 0) != 0) return ref::make_error(TG_ERR_CORRUPT, "executable_describe: not an offline executable");
  size_t nl = bytes.find('\n', sizeof kOfflineMagic - 1);
  std::string target = bytes.substr(sizeof kOfflineMagic - 1, nl - (sizeof kOfflineMagic - 1));
  Result<ir::Kernel> k = ir::read_lowered(bytes.substr(nl + 1), "<offline>");
  Result<TargetDescription> t = builtin_target(target);
  if (!k.is_ok() || !t.is_ok()) return ref::make_error(TG_ERR_CORRUPT, "executable_describe: unreadable executable");
  std::string text = "// " + target + "\n";
  std::function<void(const ir::Block&)> walk = [&](const ir::Block& b) {
    for (const ir::Stmt& s : b.stmts) {
      for (const ir::Block& inner : s.blocks) walk(inner);
      if (s.op != ir::OpKind::Gemm) continue;
      const ir::Attr* inst = ir::find_attr(s.attrs, "mma.inst");
      const ir::Attr* atom = ir::find_attr(s.attrs, "mma.atom");
      const MatrixInstruction* mi = inst ? t->find_instruction(inst->value.s) : nullptr;
      if (BREAKAGE == TG_BREAK_liar || !mi || mi->kind == InstructionKind::Fma) {
        text += "  fma.rn.f32 %f1, %f2, %f3, %f1;\n";
        continue;
      }
      std::string m = mi->mnemonic.substr(0, mi->mnemonic.find(' '));
      size_t p = m.find("nN");
      if (p != std::string::npos && atom && atom->value.list.size() == 3) m.replace(p, 2, "n" + std::to_string(atom->value.list[1].i));
      text += "  " + m + " {...};\n";
    }
  };
  walk(k->body);
  return blob_of(text, out);
}
#endif

}  // namespace

// The table: the entries above, and the reference plugin's for the rest (a using-directive, so
// qualified lookup of test_plugin::x finds tegula::reference::x unless test_plugin has its own).
namespace test_plugin {
using namespace tegula::reference;
using ::launch, ::get_info, ::device_properties, ::device_target;
#if BREAKAGE == TG_BREAK_offline || BREAKAGE == TG_BREAK_liar || BREAKAGE == TG_BREAK_opaque
using ::compile_offline;
#endif
#if BREAKAGE == TG_BREAK_offline || BREAKAGE == TG_BREAK_liar
using ::executable_describe;
#endif
}  // namespace test_plugin

#if BREAKAGE == TG_BREAK_loadcrash || BREAKAGE == TG_BREAK_loadhang
// The table exists, but tg_plugin_query never hands it over: it dies or hangs first.
namespace {
TG_SDK_DEFINE_TABLE(test_table, test_plugin, TG_TEST_PLUGIN_NAME, {.compile_offline = true, .executable_describe = true})
}  // namespace
extern "C" TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t, uint32_t, const char**) {
#if BREAKAGE == TG_BREAK_loadcrash
  ::raise(SIGSEGV);
#else
  for (;;) ::pause();
#endif
  return &test_table;
}
#elif BREAKAGE == TG_BREAK_offline || BREAKAGE == TG_BREAK_liar
TG_SDK_PLUGIN_TABLE(test_plugin, TG_TEST_PLUGIN_NAME, {})
#elif BREAKAGE == TG_BREAK_opaque
TG_SDK_PLUGIN_TABLE(test_plugin, TG_TEST_PLUGIN_NAME, {.executable_describe = true})
#else
TG_SDK_PLUGIN_TABLE(test_plugin, TG_TEST_PLUGIN_NAME, {.compile_offline = true, .executable_describe = true})
#endif
