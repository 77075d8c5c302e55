// EinsumPath::to_string: a report in the layout of NumPy's einsum_path.
#include <algorithm>
#include <cstdio>
#include <string>

#include "tenferro/einsum.hpp"

namespace tenferro {
namespace {

// The table lists at most this many steps, then how many more (EinsumPath::details has all):
// a report of every step of 200000 operands was 42 MB of text, built after planning where an
// interrupt cannot reach it.
constexpr std::size_t kReportSteps = 1000;

std::string scientific(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

std::string pad_right(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

std::string EinsumPath::to_string() const {
  int scaling = 0;
  for (const auto& step : details) scaling = std::max(scaling, step.scaling);
  if (details.empty()) scaling = naive_scaling;
  const std::string rule(74, '-');
  std::string out;
  out += "  Complete contraction:  " + expression + "\n";
  if (!method.empty()) out += "                Method:  " + method + "\n";
  char planning[64];
  std::snprintf(planning, sizeof planning, "%.3f ms", planning_seconds * 1e3);
  out += "         Planning time:  " + std::string(planning);
  if (planning_trials > 0) out += " (" + std::to_string(planning_trials) + " hyper trials)";
  out += "\n";
  if (origin == PlanOrigin::Cached) out += "                  Plan:  the runtime's plan cache\n";
  if (!steps_planned_for.empty()) {
    out += "                 Steps:  reused from the plan for shapes " + steps_planned_for +
           " (no costlier than greedy here)\n";
  }
  out += "         Naive scaling:  " + std::to_string(naive_scaling) + "\n";
  out += "     Optimized scaling:  " + std::to_string(scaling) + "\n";
  out += "      Naive FLOP count:  " + scientific(naive_flops) + "\n";
  out += "  Optimized FLOP count:  " + scientific(flops) + "\n";
  char speedup[32];
  std::snprintf(speedup, sizeof speedup, "%.3f", flops > 0 ? naive_flops / flops : 1.0);
  out += "   Theoretical speedup:  " + std::string(speedup) + "\n";
  out += "  Largest intermediate:  " + scientific(largest_intermediate) + " elements\n";
  if (!sliced_labels.empty()) {
    std::string names;
    for (std::size_t k = 0; k < sliced_names.size(); ++k) names += (k ? " " : "") + sliced_names[k];
    char overhead[32];
    std::snprintf(overhead, sizeof overhead, "%.4f", slicing_overhead);
    out += "         Sliced labels:  " + names + "\n";
    out += "                Slices:  " + scientific(num_slices) + "\n";
    out +=
        "     Sliced FLOP count:  " + scientific(sliced_flops) + " (overhead " + overhead + "x)\n";
    out += "     Largest per slice:  " + scientific(slice_largest_intermediate) + " elements\n";
  }
  out += rule + "\n";
  out += "step  pair      scaling  FLOPs       current                  remaining\n";
  out += rule + "\n";
  const std::size_t shown = std::min(details.size(), kReportSteps);
  for (std::size_t s = 0; s < shown; ++s) {
    const auto& d = details[s];
    std::string pair = s < steps.size() ? "(" + std::to_string(steps[s].first) + ", " +
                                              std::to_string(steps[s].second) + ")"
                                        : "";
    out += pad_right(std::to_string(s), 6) + pad_right(pair, 10) +
           pad_right(std::to_string(d.scaling), 9) + pad_right(scientific(d.flops), 12) +
           pad_right(d.subscripts, 25) + d.remaining + "\n";
  }
  if (shown < details.size()) {
    out += "... " + std::to_string(details.size() - shown) + " more steps (EinsumPath::details)\n";
  }
  return out;
}

}  // namespace tenferro
