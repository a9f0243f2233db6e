// The host threads that run the blocks of a launch: std::thread::hardware_concurrency() of them,
// or PUZZLE_SIM_THREADS. The launching thread is one of them.
#pragma once

namespace sim {

class HostThreadPool {
 public:
  static HostThreadPool& instance();
  unsigned size() const { return size_; }
  // Runs work(context) on `participants` host threads (at most size(), the caller included) and
  // returns once every one has returned. Launches from several host threads take turns.
  void run(unsigned participants, void (*work)(void*), void* context);

 private:
  explicit HostThreadPool(unsigned size);
  void serve(unsigned index);

  struct State;
  State* state_;
  unsigned size_;
};

}  // namespace sim
