/// \file
/// The CPU plugin's thread pool: one worker per core (the caller of run() is worker 0), each
/// with its own scratch arena. run() hands out a range of indices in chunks through an atomic
/// counter and returns when every index is done. Runs from several threads take turns.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tegula::cpu {

class ThreadPool {
public:
  /// A pool of `threads` workers in all (threads - 1 of them are std::threads).
  explicit ThreadPool(uint32_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  uint32_t size() const { return uint32_t(workers_.size()) + 1; }

  /// Work on one chunk [begin, end) with the worker's arena (arena_bytes, 64-byte aligned).
  using Task = std::function<void(int64_t begin, int64_t end, uint8_t* arena)>;

  /// Run `task` over [0, total) in chunks of `chunk` indices on every worker; false when an
  /// arena could not be allocated (nothing ran).
  bool run(int64_t total, int64_t chunk, uint64_t arena_bytes, const Task& task);

private:
  struct Arena {
    uint8_t* data = nullptr;
    uint64_t size = 0;
  };
  void worker_main(uint32_t index);
  void work(uint32_t index);
  bool ensure_arenas(uint64_t bytes);

  std::mutex run_mu_;  ///< one run at a time
  std::mutex mu_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<std::thread> workers_;
  std::vector<Arena> arenas_;
  uint64_t generation_ = 0;
  uint32_t finished_ = 0;
  bool stop_ = false;
  // The current run.
  const Task* task_ = nullptr;
  int64_t total_ = 0;
  int64_t chunk_ = 1;
  std::atomic<int64_t> next_{0};
};

}  // namespace tegula::cpu
