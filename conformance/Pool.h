/// \file
/// The parent side of the workers: start worker processes (posix_spawn, each in its own
/// process group, stdout and stderr into a log file, replies on a pipe), hand them one job
/// at a time, and watch them. A worker that dies mid-job turns that job into a Crash, one
/// that runs past the job's deadline is killed (with its whole process group) and the job
/// becomes a Timeout; either way a fresh worker takes the next job.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "conformance/Outcome.h"
#include "core/Json.h"
#include "core/Status.h"

namespace tegula::conformance {

/// How to start a worker and greet it. The hello is sent first and must be answered
/// {"ok": true} before jobs are handed over.
struct WorkerSpec {
  std::vector<std::string> argv;  ///< argv[0] is the executable
  std::string log_path;           ///< prefix of the log files workers write stdout and stderr to
  Json hello;
  double hello_timeout_s = 120;
};

/// What became of one job.
struct JobResult {
  bool replied = false;  ///< the worker answered; `reply` holds the answer
  Json reply;
  Outcome outcome = Outcome::Crash;  ///< when not replied: Crash or Timeout
  std::string detail;                ///< when not replied: what happened
};

/// Runs every job (a JSON command) on up to `workers` worker processes, calling `done`
/// in the parent's thread as each finishes. A worker that cannot be started, or dies
/// before its hello, three times in a row fails every remaining job with the reason.
/// Jobs with the same `affinity` key (if given, one per job) go to the same worker where
/// the order allows, so a worker can reuse what it built for the previous one.
void run_jobs(const WorkerSpec& spec, const std::vector<Json>& jobs, int workers, double timeout_s,
              const std::function<void(size_t job, const JobResult& result)>& done,
              const std::vector<std::string>& affinity = {});

/// One job on one fresh worker, synchronously (discovery, probes).
JobResult run_one(const WorkerSpec& spec, const Json& job, double timeout_s);

/// The path of the running executable (/proc/self/exe).
std::string self_executable();

}  // namespace tegula::conformance
