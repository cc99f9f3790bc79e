// Runs independent tasks on a few threads. The calling thread takes part, so
// threads == 1 runs everything inline with no thread created.
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace parquetry {

/// Calls task(i) for i in [0, count) on up to `threads` threads; the first
/// exception thrown by a task is rethrown after all threads stop.
inline void parallel_for(int64_t count, int threads, const std::function<void(int64_t)>& task) {
  if (threads <= 1 || count <= 1) {
    for (int64_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::atomic<int64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&]() {
    for (int64_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      try {
        task(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        next.store(count);
      }
    }
  };
  std::vector<std::thread> pool;
  int spawned = int(std::min<int64_t>(threads, count)) - 1;
  for (int t = 0; t < spawned; ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace parquetry
