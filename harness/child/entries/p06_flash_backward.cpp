#include "entry.hpp"
#include "families/attention_family.hpp"

// The learner's launcher, exactly as puzzles/06_flash_backward/06_flash_backward.cu defines it.
void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal);

void puzzle_call_launcher(const LaunchArgs& args) {
  const auto size = [&](const char* name) { return static_cast<int>(args.params.at(name)); };
  flash_bwd(args.in.at(0), args.in.at(1), args.in.at(2), args.in.at(3), args.in.at(4), args.in.at(5),
            args.out.at(0), args.out.at(1), args.out.at(2), size("bh"), size("n_q"), size("n_k"), size("d"),
            static_cast<float>(puzzle::puzzles::attention::scale_of(args.params)),
            args.params.at("causal") != 0);
}
