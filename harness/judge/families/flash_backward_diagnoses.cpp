// Puzzle 6's diagnoses. Most bugs of a backward kernel give gradients that are exactly right for a kernel
// that did one step differently (P without lse, D left out, no scale, the causal diagonal moved): each
// such hypothesis is recomputed in double as a BackwardModel and compared with all three outputs. The
// bugs that touch dq alone (how the key tiles' contributions reach it) are told apart by dk and dv
// being right.
#include "families/flash_backward_diagnoses.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>

#include "compare.hpp"
#include "format.hpp"
#include "families/attention_backward_reference.hpp"

namespace puzzle::puzzles {
namespace {

using attention::BackwardModel;
using attention::Shape;

enum Input { kQ, kK, kV, kO, kLse, kDout };
enum Output { kDq, kDk, kDv };

// Recomputing a hypothesis costs a float64 backward pass; beyond this many multiply-adds (the
// simulator's cases are all below it) the hypotheses are left to the smaller cases, which fail alike.
constexpr double kMaxModelWork = 5e7;

// The outputs are those of `model` under `shape`: every element within 10x the tolerance (a wrong
// kernel's own float32 rounding comes on top of the model's).
bool matches(const CaseEvidence& e, const Shape& shape, const BackwardModel& model) {
  const Buffers& in = *e.inputs;
  std::vector<double> grads[3] = {std::vector<double>(in[kQ].size()), std::vector<double>(in[kK].size()),
                                  std::vector<double>(in[kV].size())};
  attention::backward(shape, in[kQ].data(), in[kK].data(), in[kV].data(), in[kDout].data(), grads[kDq].data(),
                      grads[kDk].data(), grads[kDv].data(), model);
  const Tolerance loose = {10 * e.puzzle->tolerance.atol, 10 * e.puzzle->tolerance.rtol};
  for (int b = kDq; b <= kDv; ++b) {
    const std::vector<float>& got = (*e.outputs)[b];
    for (size_t i = 0; i < got.size(); ++i) {
      if (compare_element(got[i], grads[b][i], loose) != Outcome::ok) return false;
    }
  }
  return true;
}

struct Hypothesis {
  const char* id;
  std::string message;
  Shape shape;
  BackwardModel model;
};

std::vector<Hypothesis> hypotheses(const CaseEvidence& e, const Shape& shape) {
  const BackwardModel kernel{.lse = (*e.inputs)[kLse].data(), .o = (*e.inputs)[kO].data()};
  const std::string p_rule =
      ": P = exp(scale * s - lse), where lse is the natural-log logsumexp of the row "
      "(puzzle 5's output), so that each row of P sums to 1";
  std::vector<Hypothesis> list = {
      {"p_without_lse", "the gradients are those of a P computed without subtracting lse" + p_rule, shape,
       BackwardModel{.lse = kernel.lse, .lse_factor = 0, .o = kernel.o}},
      {"lse_wrong_base",
       "the gradients are those of a P computed as exp2(scale * s * log2(e) - lse): lse was read as a base-2 "
       "logsumexp" +
           p_rule,
       shape, BackwardModel{.lse = kernel.lse, .lse_factor = std::numbers::ln2, .o = kernel.o}},
      {"delta_omitted",
       "the gradients are those of dS = P * dP: D_i = rowsum(dout * o)_i is missing. The softmax's Jacobian "
       "has two terms, dS = P * (dP - D): compute D first (a small kernel, one value per query row)",
       shape, BackwardModel{.lse = kernel.lse, .o = kernel.o, .subtract_delta = false}},
      {"gradient_scaled",
       "dq and dk are the right answers times 1/scale = " + format_number(1 / shape.scale, 4) +
           ": the scores are scale * q . k, so the chain rule brings scale into dq = scale * dS K and "
           "dk = scale * dS^T Q (dv has no scale)",
       shape, BackwardModel{.lse = kernel.lse, .o = kernel.o, .scale_dq_dk = false}},
  };
  if (shape.causal) {
    for (const int64_t shift : {1, -1}) {
      Shape moved = shape;
      moved.diagonal += shift;
      list.push_back(
          {"causal_mask_shifted",
           std::string("the gradients are those of a causal mask moved by one key (") +
               (shift > 0 ? "each query also sees the key after its last"
                          : "each query misses its last key") +
               "): query i sees key j iff j <= i + (n_k - n_q), `<=` and not `<`, with the n_k - n_q "
               "of bottom-right alignment",
           moved, kernel});
    }
    if (shape.diagonal != 0) {
      Shape top_left = shape;
      top_left.diagonal = 0;
      list.push_back({"causal_mask_shifted",
                      "the gradients are those of a causal mask aligned top-left (j <= i): with n_q != n_k, "
                      "query i sees key j iff j <= i + (n_k - n_q)",
                      top_left, kernel});
    }
  }
  return list;
}

// got = factor * want over the elements of at least a tenth of the buffer's largest (where float32
// rounding is far below the 1e-3 allowed here), if one factor fits them all.
std::optional<double> common_factor(const CaseEvidence& e, int b) {
  const std::vector<float>& got = (*e.outputs)[b];
  const std::vector<double>& want = (*e.expected)[b];
  double largest = 0;
  for (double w : want) largest = std::max(largest, std::abs(w));
  double low = INFINITY, high = -INFINITY;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::abs(want[i]) < largest / 10) continue;
    low = std::min(low, got[i] / want[i]);
    high = std::max(high, got[i] / want[i]);
  }
  if (!(low <= high) || high - low > 1e-3 * std::abs(high)) return std::nullopt;  // none, or NaN
  return (low + high) / 2;
}

bool buffer_right(const CaseEvidence& e, int b) {
  return e.checks[b].available && e.checks[b].mismatches == 0;
}

// dk and dv are right and dq is not: the bug is in how dq's sum over tiles of keys was gathered.
void dq_accumulation(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  const BufferCheck& dq = e.checks[kDq];
  if (buffer_right(e, kDq) || !buffer_right(e, kDk) || !buffer_right(e, kDv)) return;
  if (dq.nan_count + dq.unwritten == dq.elements) {
    out.push_back(
        {"dq_not_zeroed",
         "dk and dv are right, and every element of dq is NaN or still the harness's NaN fill (shown as "
         "never written): dq was never zeroed, and atomicAdd(NaN, x) is NaN. cudaMemsetAsync(dq, 0, bytes) "
         "in the launcher, before the kernel"});
    return;
  }
  if (dq.nan_count + dq.inf_count + dq.unwritten > 0) return;
  if (const std::optional<double> factor = common_factor(e, kDq)) {
    out.push_back(
        {"dq_scaled", "dk and dv are right, and dq is the right answer times " + format_number(*factor, 4) +
                          " everywhere: a factor of dq alone is wrong. dq = scale * dS K with scale = " +
                          format_number(attention::scale_of(e.test->params), 4) +
                          ", like dk = scale * dS^T Q: left out, or applied twice?"});
    return;
  }
  out.push_back(
      {"dq_lost_updates",
       "dk and dv are right but " + std::to_string(dq.mismatches) +
           " elements of dq are wrong, and not by one factor: the bug is in dq alone. Either contributions "
           "were lost: blocks of different key tiles add to the same dq rows, so use atomicAdd on a dq "
           "zeroed first, never dq[i] = ... (the last block wins) nor a plain dq[i] += ... (a race: the GPU "
           "loses updates, the simulator may not show it), or compute dq in a separate pass over query "
           "tiles. Or dq's own sum is off: dq_i = scale * sum_j ds_ij k_j, with k (not q or v) and the same "
           "ds as dk"});
}

}  // namespace

void flash_backward_diagnoses(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  for (const BufferCheck& c : e.checks) {
    if (!c.available) return;
  }
  dq_accumulation(e, out);
  const Shape shape = attention::shape_of(e.test->params);
  if (static_cast<double>(shape.bh * shape.n_q * shape.n_k * shape.d) > kMaxModelWork) return;
  for (const Hypothesis& h : hypotheses(e, shape)) {
    if (matches(e, h.shape, h.model)) {
      out.push_back({h.id, h.message});
      return;
    }
  }
}

}  // namespace puzzle::puzzles
