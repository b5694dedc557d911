/// \file
/// The CPU plugin's thread pool (see ThreadPool.h).
#include "plugins/cpu/ThreadPool.h"

#include <cstdint>
#include <cstdlib>

#include "plugins/cpu/CpuAbi.h"

namespace tegula::cpu {

ThreadPool::ThreadPool(uint32_t threads) {
  arenas_.resize(threads ? threads : 1);
  for (uint32_t i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_main(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
  for (Arena& a : arenas_) std::free(a.data);
}

bool ThreadPool::ensure_arenas(uint64_t bytes) {
  if (bytes > SIZE_MAX - (kAlignment - 1)) return false;  // rounding up would wrap
  uint64_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  for (Arena& a : arenas_) {
    if (a.size >= rounded) continue;
    void* p = std::aligned_alloc(kAlignment, size_t(rounded));
    if (!p) return false;
    std::free(a.data);
    a.data = static_cast<uint8_t*>(p);
    a.size = rounded;
  }
  return true;
}

void ThreadPool::work(uint32_t index) {
  uint8_t* arena = arenas_[index].data;
  for (;;) {
    int64_t begin = next_.fetch_add(chunk_, std::memory_order_relaxed);
    if (begin >= total_) return;
    int64_t end = begin + chunk_ < total_ ? begin + chunk_ : total_;
    (*task_)(begin, end, arena);
  }
}

void ThreadPool::worker_main(uint32_t index) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    work(index);
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++finished_;
    }
    done_.notify_one();
  }
}

bool ThreadPool::run(int64_t total, int64_t chunk, uint64_t arena_bytes, const Task& task) {
  std::lock_guard<std::mutex> run_lock(run_mu_);
  if (!ensure_arenas(arena_bytes)) return false;
  if (total <= 0) return true;
  if (chunk < 1) chunk = 1;
  // Too little work to be worth waking anyone.
  if (workers_.empty() || total <= chunk) {
    task(0, total, arenas_[0].data);
    return true;
  }
  task_ = &task;
  total_ = total;
  chunk_ = chunk;
  next_.store(0, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mu_);
    finished_ = 0;
    ++generation_;
  }
  wake_.notify_all();
  work(0);
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [&] { return finished_ == workers_.size(); });
  task_ = nullptr;
  return true;
}

}  // namespace tegula::cpu
