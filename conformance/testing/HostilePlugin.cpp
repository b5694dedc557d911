/// \file
/// The hostile plugin: the reference interpreter behind the public ABI, turned hostile at one
/// entry chosen at run time, so one library covers every entry and every fault:
///
///   TEGULA_HOSTILE_ENTRY  an entry of tg_plugin_api (plugins/abi/tegula_abi_entries.h)
///   TEGULA_HOSTILE_FAULT  crash    raise SIGSEGV inside the entry
///                         hang     never return
///                         garbage  return an error object with a code outside the enum and
///                                  a message of control characters and forged lines (entries
///                                  that return nothing: skip the work, leaking it)
///
/// Unset, it behaves as the reference plugin under its own name. The hostile suite
/// (conformance/tests/hostile_plugin_suite.cmake) runs `tegula devices`, `tegula run` and
/// `tegula conformance` beside it for every (entry, fault).
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "plugins/abi/tegula_abi_entries.h"
#include "plugins/reference/Reference.h"
#include "plugins/support/EntryTable.h"
#include "plugins/support/PluginErrors.h"

namespace {

enum class Fault { None, Crash, Hang, Garbage };

/// The fault for `entry`: read once per call, so a test can set it before starting the host.
Fault fault_for(const char* entry) {
  const char* target = std::getenv("TEGULA_HOSTILE_ENTRY");
  const char* fault = std::getenv("TEGULA_HOSTILE_FAULT");
  if (!target || !fault || std::strcmp(target, entry) != 0) return Fault::None;
  if (std::strcmp(fault, "crash") == 0) return Fault::Crash;
  if (std::strcmp(fault, "hang") == 0) return Fault::Hang;
  if (std::strcmp(fault, "garbage") == 0) return Fault::Garbage;
  return Fault::None;
}

/// Crash and hang happen here; true when the caller must answer garbage instead of working.
bool strike(const char* entry) {
  switch (fault_for(entry)) {
    case Fault::None: return false;
    case Fault::Crash: ::raise(SIGSEGV); return false;
    case Fault::Hang:
      for (;;) ::pause();
    case Fault::Garbage: return true;
  }
  return false;
}

tg_error* garbage_error() {
  return tegula::plugin::make_error(static_cast<tg_status_code>(0x7fff0001),
                                    "\x1b[31mgarbage\r\nreference:0: Pass (forged line)\n\x07");
}

template <class R>
R garbage_answer() {
  if constexpr (std::is_same_v<R, tg_error*>) return garbage_error();
}

}  // namespace

namespace hostile_plugin {

#define TG_HOSTILE_ENTRY(name, ret, params, args, since, optional)      \
  ret name params {                                                     \
    if (strike(#name)) return garbage_answer<ret>();                    \
    return tegula::reference::name args;                                \
  }
TG_ABI_PLUGIN_ENTRIES(TG_HOSTILE_ENTRY)
#undef TG_HOSTILE_ENTRY

}  // namespace hostile_plugin

// get_info under its own name: the manifest says conformance_hostile.
namespace hostile_named {
using namespace hostile_plugin;
tg_error* get_info(tg_plugin_info* out) {
  tg_error* e = hostile_plugin::get_info(out);
  if (!e && out) {
    out->name = "conformance_hostile";
    out->description = "the reference interpreter, hostile at TEGULA_HOSTILE_ENTRY (TEGULA_HOSTILE_FAULT)";
  }
  return e;
}
}  // namespace hostile_named

TG_SDK_PLUGIN_TABLE(hostile_named, "conformance_hostile", {})
