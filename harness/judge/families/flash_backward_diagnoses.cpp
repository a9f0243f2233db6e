// Puzzle 6's and 10's diagnoses. Most bugs of a backward kernel give gradients that are exactly right for a
// kernel that did one step differently (P without lse, D left out, no scale, the causal diagonal moved): each
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
#include "families/attention_backward_reference.hpp"
#include "format.hpp"

namespace puzzle::puzzles {
namespace {

using attention::BackwardModel;
using attention::Shape;

enum Input { kQ, kK, kV, kO, kLse, kDout };
enum Output { kDq, kDk, kDv };

// Recomputing a hypothesis costs a float64 backward pass; beyond this many multiply-adds (the
// simulator's cases are all below it) the hypotheses are left to the smaller cases, which fail alike.
constexpr double kMaxModelWork = 5e7;

bool sixteen_bit(const CaseEvidence& e) {
  return e.allowance && !e.allowance->empty();
}

// 16-bit gradients carry a rounding error of ~2^-8 relative on every element, so they are compared with a
// hypothesis as whole buffers: within 3% of the model's norm (a right kernel errs by ~0.5%), and at most
// half as far from the model as from the right answer, so that a model close to the right answer (a
// diagonal moved by one key in a long row) claims only a kernel that is nearer to it.
bool matches_in_norm(const CaseEvidence& e, const std::vector<double> (&model)[3]) {
  double off_model = 0, off_right = 0, norm = 0;
  for (int b = kDq; b <= kDv; ++b) {
    const std::vector<float>& got = (*e.outputs)[b];
    const std::vector<double>& right = (*e.expected)[b];
    for (size_t i = 0; i < got.size(); ++i) {
      off_model += (got[i] - model[b][i]) * (got[i] - model[b][i]);
      off_right += (got[i] - right[i]) * (got[i] - right[i]);
      norm += model[b][i] * model[b][i];
    }
  }
  return off_model <= 0.03 * 0.03 * norm && off_model <= 0.25 * off_right;  // false for NaN
}

// The outputs are those of `model` under `shape`: every element within 10x the tolerance (a wrong
// kernel's own float32 rounding comes on top of the model's), or for 16-bit gradients matches_in_norm.
bool matches(const CaseEvidence& e, const Shape& shape, const BackwardModel& model) {
  const Buffers& in = *e.inputs;
  std::vector<double> grads[3] = {std::vector<double>(in[kQ].size()), std::vector<double>(in[kK].size()),
                                  std::vector<double>(in[kV].size())};
  attention::backward(shape, in[kQ].data(), in[kK].data(), in[kV].data(), in[kDout].data(), grads[kDq].data(),
                      grads[kDk].data(), grads[kDv].data(), model);
  if (sixteen_bit(e)) return matches_in_norm(e, grads);
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

// got = factor * want, if one factor fits the whole buffer. float32: over the elements of at least a tenth
// of the buffer's largest, each within 1e-3 of the factor (float32 rounding is far below). 16-bit: every
// element carries its own rounding, and cancellation makes some relatively large, so the factor is the
// least-squares fit over the buffer and must leave a residual under 3% of its norm.
std::optional<double> common_factor(const CaseEvidence& e, int b) {
  const std::vector<float>& got = (*e.outputs)[b];
  const std::vector<double>& want = (*e.expected)[b];
  if (sixteen_bit(e)) {
    double got_want = 0, want_want = 0, got_got = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      got_want += got[i] * want[i];
      want_want += want[i] * want[i];
      got_got += static_cast<double>(got[i]) * got[i];
    }
    if (!(want_want > 0)) return std::nullopt;
    const double factor = got_want / want_want;
    const double residual = got_got - factor * got_want;            // |got - factor want|^2
    if (!(residual <= 0.03 * 0.03 * got_got)) return std::nullopt;  // NaN too
    return factor;
  }
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
void dq_alone_wrong(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  const BufferCheck& dq = e.checks[kDq];
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

// dq and dv are right and dk is not: P and dS are right (dq is made of dS, dv of P), the dS^T Q product
// is not.
void dk_alone_wrong(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  const double scale = attention::scale_of(e.test->params);
  const std::optional<double> factor = common_factor(e, kDk);
  if (factor && std::abs(*factor * scale - 1) < 0.03) {
    out.push_back(
        {"dk_scale_missing",
         "dq and dv are right, and dk is the right answer times 1/scale = " + format_number(1 / scale, 4) +
             " everywhere: dk = scale * dS^T Q, and its scale was left out (dq has it)"});
    return;
  }
  out.push_back(
      {"dk_alone_wrong",
       "dq and dv are right but dk is not" +
           (factor ? " (it is the right answer times " + format_number(*factor, 4) + ")" : std::string()) +
           ": dS and P are right, since dq and dv are made of them, so the bug is in dk = scale * dS^T "
           "Q alone: dS^T (keys as rows) against Q over the queries, its scale, or how dk is stored"});
}

// dq and dk are right and dv is not: P is right (dS is made of it), the P^T dout product is not.
void dv_alone_wrong(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  out.push_back(
      {"dv_alone_wrong",
       "dq and dk are right but dv is not: P is right, since dS = P * (dP - D) and dq and dk are made "
       "of it, so the bug is in dv = P^T dout alone: P^T (keys as rows, not P), summed over the "
       "queries against dout's rows; on tensor cores, P^T's packing as an A fragment and dout's "
       "ldmatrix .trans"});
}

// The buffer is right and tells something: a gradient that is ~0 everywhere (one key: dq = dk = 0 whatever
// P is) is right without showing that what it is made of is.
bool right_evidence(const CaseEvidence& e, int b) {
  const std::vector<double>& want = (*e.expected)[b];
  const bool nonzero = std::any_of(want.begin(), want.end(),
                                   [&](double w) { return std::abs(w) > 10 * e.puzzle->tolerance.atol; });
  return buffer_right(e, b) && nonzero;
}

// Exactly one gradient is wrong: the step that only it takes.
void one_gradient_wrong(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  const int right = buffer_right(e, kDq) + buffer_right(e, kDk) + buffer_right(e, kDv);
  const bool dq = right_evidence(e, kDq), dk = right_evidence(e, kDk), dv = right_evidence(e, kDv);
  if (right != 2 || dq + dk + dv != 2) return;  // the two right ones must both tell something
  if (!dq) dq_alone_wrong(e, out);
  if (!dk) dk_alone_wrong(e, out);
  if (!dv) dv_alone_wrong(e, out);
}

}  // namespace

void flash_backward_diagnoses(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  for (const BufferCheck& c : e.checks) {
    if (!c.available) return;
  }
  one_gradient_wrong(e, out);
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
