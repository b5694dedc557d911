/// \file
/// The worker: `tegula conformance --worker` opens its own runtime (never a forked copy of
/// the parent's: GPU drivers do not survive fork) and answers one JSON command per line on
/// stdin with one JSON line on file descriptor 3, so nothing a plugin prints to stdout can
/// be mistaken for a reply. Commands:
///
///   {"op": "hello", "device": D}             open the device; {"ok": true} or {"error": ...}
///   {"op": "devices"}                        every device, plugin and skipped plugin
///   {"op": "run", "device": D, "case": C}    {"record": {...}}
///   {"op": "probe", "plugin": P, "target": T}   can P compile offline for T?
///   {"op": "offline", "plugin": P, "target": T, "case": C}   {"record": {...}}
///   {"op": "perf", "device": D, "figure": F, "large": L}   {"figure": {...}}: one performance
///                                            figure, at accelerator sizes when L
///
/// A case that crashes or hangs takes the worker with it; the parent (Pool.h) records
/// Crash or Timeout and starts a fresh worker.
#pragma once

#include <cstdint>
#include <string>

namespace tegula::conformance {

struct WorkerOptions {
  std::string plugin;  ///< load only this plugin; "" for all
  uint64_t seed = 0;
};

/// Runs until stdin closes; returns the process exit status.
int worker_main(const WorkerOptions& options);

}  // namespace tegula::conformance
