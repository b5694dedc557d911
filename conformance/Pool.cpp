#include "conformance/Pool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

extern char** environ;

namespace tegula::conformance {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_until(Clock::time_point t) { return std::chrono::duration<double>(t - Clock::now()).count(); }

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return "killed by signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended (wait status " + std::to_string(status) + ")";
}

/// The last few lines a worker wrote to its log, for Crash details.
std::string log_tail(const std::string& path, size_t from) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  off_t end = ::lseek(fd, 0, SEEK_END);
  off_t start = std::max<off_t>(off_t(from), end - 600);
  std::string text;
  if (end > start) {
    text.resize(size_t(end - start));
    ssize_t n = ::pread(fd, text.data(), text.size(), start);
    text.resize(n > 0 ? size_t(n) : 0);
  }
  ::close(fd);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text)
    if (c == '\n') c = '|';
  return text;
}

class Process {
public:
  static Result<std::unique_ptr<Process>> start(const WorkerSpec& spec) {
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0) return error(ErrorCode::Io, std::string("pipe: ") + strerror(errno));
    if (::pipe2(from_child, O_CLOEXEC) != 0) {
      ::close(to_child[0]);
      ::close(to_child[1]);
      return error(ErrorCode::Io, std::string("pipe: ") + strerror(errno));
    }
    auto p = std::make_unique<Process>();
    p->log_path_ = spec.log_path;
    int log = ::open(spec.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    p->log_start_ = log >= 0 ? size_t(::lseek(log, 0, SEEK_END)) : 0;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&fa, from_child[1], 3);
    if (log >= 0) {
      posix_spawn_file_actions_adddup2(&fa, log, 1);
      posix_spawn_file_actions_adddup2(&fa, log, 2);
    }
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setpgroup(&attr, 0);  // its own process group: a timeout kills all of it
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    std::vector<char*> argv;
    for (const std::string& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, spec.argv[0].c_str(), &fa, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    ::close(to_child[0]);
    ::close(from_child[1]);
    if (log >= 0) ::close(log);
    if (rc != 0) {
      ::close(to_child[1]);
      ::close(from_child[0]);
      return error(ErrorCode::Io, "cannot start " + spec.argv[0] + ": " + strerror(rc));
    }
    p->pid_ = pid;
    p->in_ = to_child[1];
    p->out_ = from_child[0];
    return p;
  }

  Process() = default;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  /// An idle worker is asked to leave (its input closes) so its plugins shut down cleanly;
  /// one that does not within two seconds is killed.
  ~Process() {
    if (pid_ <= 0) return;
    ::close(in_);
    in_ = -1;
    for (int i = 0; i < 200; ++i) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        ::close(out_);
        out_ = -1;
        return;
      }
      ::usleep(10000);
    }
    kill();
  }

  int out_fd() const { return out_; }
  const std::string& log_path() const { return log_path_; }
  size_t log_start() const { return log_start_; }

  bool send(const Json& j) {
    std::string line = j.dump() + "\n";
    const char* p = line.data();
    size_t left = line.size();
    while (left) {
      ssize_t n = ::write(in_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      p += n;
      left -= size_t(n);
    }
    return true;
  }

  enum class Read { Line, Again, Eof };
  /// Take whatever is ready; a complete line goes to `line`.
  Read read_available(std::string& line) {
    char chunk[65536];
    ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return Read::Again;
    if (n <= 0) return Read::Eof;
    buffer_.append(chunk, size_t(n));
    return take_line(line) ? Read::Line : Read::Again;
  }
  bool take_line(std::string& line) {
    size_t nl = buffer_.find('\n');
    if (nl == std::string::npos) return false;
    line = buffer_.substr(0, nl);
    buffer_.erase(0, nl + 1);
    return true;
  }

  /// Kill the whole process group and reap the worker; its end, described.
  std::string kill() {
    if (pid_ <= 0) return exit_;
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    return reap();
  }
  /// Reap a worker that ended by itself.
  std::string reap() {
    if (pid_ <= 0) return exit_;
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    exit_ = describe_exit(status);
    pid_ = -1;
    if (in_ >= 0) ::close(in_);
    if (out_ >= 0) ::close(out_);
    in_ = out_ = -1;
    return exit_;
  }

private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buffer_;
  std::string log_path_;
  size_t log_start_ = 0;
  std::string exit_;
};

/// A reply line as a result: its JSON, or (when it does not parse) an error reply that
/// keeps the parse error and the start of the line, so the case's detail says what came.
JobResult reply_from_line(const std::string& line) {
  JobResult r;
  r.replied = true;
  Result<Json> j = Json::parse(line, "<worker reply>");
  if (j.is_ok()) {
    r.reply = *j;
    return r;
  }
  r.reply = Json::object();
  r.reply.set("error", "malformed worker reply (" + j.status().message() + "): " + line.substr(0, 200));
  return r;
}

/// Wait for one reply line until the deadline.
JobResult await_reply(Process& p, Clock::time_point deadline, double timeout_s) {
  JobResult r;
  std::string line;
  if (p.take_line(line)) {
    return reply_from_line(line);
  }
  for (;;) {
    double left = seconds_until(deadline);
    if (left <= 0) {
      std::string how = p.kill();
      r.outcome = Outcome::Timeout;
      r.detail = "no answer within " + std::to_string(int(timeout_s)) + " s; the worker was killed (" + how + ")";
      return r;
    }
    pollfd pfd{p.out_fd(), POLLIN, 0};
    int rc = ::poll(&pfd, 1, int(std::min(left * 1000 + 1, double(INT_MAX))));
    if (rc <= 0) continue;
    Process::Read got = p.read_available(line);
    if (got == Process::Read::Again) continue;
    if (got == Process::Read::Line) return reply_from_line(line);
    std::string how = p.reap();
    r.outcome = Outcome::Crash;
    std::string tail = log_tail(p.log_path(), p.log_start());
    r.detail = "the worker " + how + (tail.empty() ? "" : "; its last output: " + tail);
    return r;
  }
}

/// Start a worker and greet it; nullptr (with `why`) when that fails.
std::unique_ptr<Process> start_worker(const WorkerSpec& spec, std::string& why, Outcome* outcome = nullptr) {
  Result<std::unique_ptr<Process>> p = Process::start(spec);
  if (!p.is_ok()) {
    why = p.status().message();
    return nullptr;
  }
  if (!(*p)->send(spec.hello)) {
    why = "the worker closed its input: " + (*p)->reap();
    return nullptr;
  }
  JobResult hello = await_reply(**p, Clock::now() + std::chrono::milliseconds(int64_t(spec.hello_timeout_s * 1000)),
                                spec.hello_timeout_s);
  if (!hello.replied) {
    why = "the worker did not start: " + hello.detail;
    if (outcome) *outcome = hello.outcome;
    return nullptr;
  }
  const Json* ok = hello.reply.find("ok");
  if (!ok || !ok->is_bool() || !ok->as_bool()) {
    const Json* e = hello.reply.find("error");
    why = "the worker could not open the device: " + (e && e->is_string() ? e->as_string() : hello.reply.dump());
    return nullptr;
  }
  return std::move(p).value();
}

}  // namespace

std::string self_executable() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = 0;
  return buf;
}

void run_jobs(const WorkerSpec& spec, const std::vector<Json>& jobs, int workers, double timeout_s,
              const std::function<void(size_t, const JobResult&)>& done, const std::vector<std::string>& affinity) {
  struct Slot {
    std::unique_ptr<Process> process;
    size_t job = 0;
    bool busy = false;
    bool has_last = false;
    Clock::time_point deadline;
  };
  // The next job for a slot: among the first few pending, one with the key of the slot's
  // previous job, else the oldest.
  auto take = [&](std::deque<size_t>& pending, const Slot& s) {
    auto pick = pending.begin();
    if (s.has_last && !affinity.empty()) {
      const std::string& key = affinity[s.job];
      for (auto it = pending.begin(); it != pending.end() && it - pending.begin() < 64; ++it) {
        if (affinity[*it] == key) {
          pick = it;
          break;
        }
      }
    }
    size_t job = *pick;
    pending.erase(pick);
    return job;
  };
  std::deque<size_t> pending;
  for (size_t i = 0; i < jobs.size(); ++i) pending.push_back(i);
  std::vector<Slot> slots(size_t(std::max(1, std::min<int>(workers, int(jobs.size())))));
  std::vector<WorkerSpec> slot_specs(slots.size(), spec);
  for (size_t i = 0; i < slots.size(); ++i) slot_specs[i].log_path = spec.log_path + ".w" + std::to_string(i) + ".log";
  int start_failures = 0;
  std::string last_start_failure;
  auto finish = [&](Slot& s, const JobResult& r) {
    s.busy = false;
    done(s.job, r);
  };
  while (!pending.empty() || std::any_of(slots.begin(), slots.end(), [](const Slot& s) { return s.busy; })) {
    for (size_t si = 0; si < slots.size(); ++si) {
      Slot& s = slots[si];
      if (s.busy || pending.empty()) continue;
      if (start_failures >= 3) {
        JobResult r;
        r.outcome = Outcome::Crash;
        r.detail = "no worker could be started (" + last_start_failure + ")";
        s.job = pending.front();
        pending.pop_front();
        done(s.job, r);
        continue;
      }
      if (!s.process) {
        std::string why;
        s.process = start_worker(slot_specs[si], why);
        if (!s.process) {
          ++start_failures;
          last_start_failure = why;
          continue;
        }
      }
      s.job = take(pending, s);
      s.has_last = true;
      s.busy = true;
      s.deadline = Clock::now() + std::chrono::milliseconds(int64_t(timeout_s * 1000));
      if (!s.process->send(jobs[s.job])) {
        JobResult r;
        r.detail = "the worker " + s.process->reap() + " before taking the job";
        s.process.reset();
        finish(s, r);
      }
    }
    // Wait for the first reply, or the first deadline.
    std::vector<pollfd> fds;
    std::vector<Slot*> owners;
    Clock::time_point next = Clock::now() + std::chrono::seconds(3600);
    for (Slot& s : slots) {
      if (!s.busy) continue;
      fds.push_back({s.process->out_fd(), POLLIN, 0});
      owners.push_back(&s);
      next = std::min(next, s.deadline);
    }
    if (fds.empty()) continue;
    double left = std::max(0.0, seconds_until(next));
    ::poll(fds.data(), fds.size(), int(std::min(left * 1000 + 1, double(INT_MAX))));
    for (size_t i = 0; i < fds.size(); ++i) {
      Slot& s = *owners[i];
      JobResult r;
      bool died = false;
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        std::string line;
        Process::Read got = s.process->read_available(line);
        if (got == Process::Read::Line) {
          r = reply_from_line(line);
          start_failures = 0;
          finish(s, r);
          continue;
        }
        // A partial line (Again) falls through to the deadline: bytes without a newline
        // must not keep a worker alive past it.
        died = got != Process::Read::Again;
      }
      if (died) {
        std::string how = s.process->reap();
        std::string tail = log_tail(s.process->log_path(), s.process->log_start());
        r.outcome = Outcome::Crash;
        r.detail = "the worker " + how + (tail.empty() ? "" : "; its last output: " + tail);
      } else if (seconds_until(s.deadline) <= 0) {
        r.outcome = Outcome::Timeout;
        r.detail = "no answer within " + std::to_string(int(timeout_s)) + " s; the worker was killed (" + s.process->kill() + ")";
      } else {
        continue;
      }
      s.process.reset();
      finish(s, r);
    }
  }
}

JobResult run_one(const WorkerSpec& spec, const Json& job, double timeout_s) {
  std::string why;
  WorkerSpec one = spec;
  one.log_path += ".log";
  Outcome outcome = Outcome::Crash;
  std::unique_ptr<Process> p = start_worker(one, why, &outcome);
  if (!p) {
    JobResult r;
    r.outcome = outcome;
    r.detail = why;
    return r;
  }
  if (!p->send(job)) {
    JobResult r;
    r.detail = "the worker " + p->reap();
    return r;
  }
  return await_reply(*p, Clock::now() + std::chrono::milliseconds(int64_t(timeout_s * 1000)), timeout_s);
}

}  // namespace tegula::conformance
