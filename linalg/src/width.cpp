// width.cpp: the dispatch cost table and the width choice (see width.hpp).
#include "teamla/linalg/width.hpp"

#include <atomic>
#include <cmath>
#include <cstdint>

#include "isa_dispatch.hpp"
#include "teamla/team/machine.hpp"

namespace teamla::linalg {
namespace {

// Section dispatch+join cost at width 2, in ns, per kind. Provisional figures from
// docs/MEASURING.md (AMD EPYC VM, 2 vCPUs): an empty libgomp `omp parallel` of 2 threads costs
// ~3.1 us with its workers spinning (hot); a futex-parked thread woken from the other CPU
// runs ~66 us later (p50) (parked). after_gap sits between: the wake of a member that has
// left its spin and is in the yield/short-sleep phase, taken as ~20 us.
// TODO(gemm): replace with the team runtime's own measurements (docs/team.md).
constexpr double kHotNs = 3100;
constexpr double kAfterGapNs = 20000;
constexpr double kParkedNs = 66000;
// Each member beyond the first adds one wake and one join arrival; taken as a third of the
// width-2 cost (the leader's own share of a section does not grow with width).
constexpr double kPerExtraMemberFraction = 1.0 / 3.0;

double base_cost(DispatchKind kind) {
  switch (kind) {
    case DispatchKind::hot:
      return kHotNs;
    case DispatchKind::after_gap:
      return kAfterGapNs;
    case DispatchKind::parked:
      return kParkedNs;
  }
  return kParkedNs;
}

std::size_t choose_with_extra(double serial_estimate_ns, std::size_t sections,
                              std::size_t max_width, DispatchKind kind, double extra_ns) {
  if (sections == 0) {
    sections = 1;
  }
  std::size_t best_width = 1;
  double best_time = serial_estimate_ns;
  const auto n_sections = static_cast<double>(sections);
  for (std::size_t w = 2; w <= max_width; ++w) {
    const double dispatch = n_sections * (dispatch_cost_ns(w, kind) + extra_ns);
    if (serial_estimate_ns < 3.0 * dispatch) {
      continue;  // the dispatches would cost more than a third of the work
    }
    const double time = serial_estimate_ns / static_cast<double>(w) + dispatch;
    if (time < best_time * (1.0 - kWidthTieTolerance)) {
      best_time = time;
      best_width = w;
    }
  }
  return best_width;
}

// The observed penalty: value (ns, as of stamp) and the monotonic stamp, each a relaxed
// atomic. The two are read and written without a common lock: a racing reader may pair a
// new value with an old stamp (or the reverse), which only shifts the decay by the time
// between two records; the penalty is a heuristic, never a correctness input.
std::atomic<double> g_penalty_ns{0.0};
std::atomic<std::uint64_t> g_penalty_stamp_ns{0};

double decayed(double value, std::uint64_t stamp, std::uint64_t now) {
  if (value <= 0.0 || now <= stamp) {
    return value;
  }
  return value * std::exp2(-static_cast<double>(now - stamp) / kPenaltyHalfLifeNs);
}

}  // namespace

double observed_section_penalty_ns() {
  return decayed(g_penalty_ns.load(std::memory_order_relaxed),
                 g_penalty_stamp_ns.load(std::memory_order_relaxed), team::monotonic_ns());
}

void record_section(double wall_ns, double expected_ns) {
  const std::uint64_t now = team::monotonic_ns();
  const double excess = wall_ns > expected_ns ? wall_ns - expected_ns : 0.0;
  const double current = observed_section_penalty_ns();
  g_penalty_ns.store(0.75 * current + 0.25 * excess, std::memory_order_relaxed);
  g_penalty_stamp_ns.store(now, std::memory_order_relaxed);
}

std::size_t choose_width_observed(double serial_estimate_ns, std::size_t sections,
                                  std::size_t max_width, DispatchKind kind) {
  if (max_width <= 1) {
    return 1;
  }
  return choose_with_extra(serial_estimate_ns, sections, max_width, kind,
                           observed_section_penalty_ns());
}

double dispatch_cost_ns(std::size_t width, DispatchKind kind) {
  if (width <= 1) {
    return 0.0;
  }
  const double base = base_cost(kind);
  return base + base * kPerExtraMemberFraction * static_cast<double>(width - 2);
}

std::size_t choose_width(double serial_estimate_ns, std::size_t sections, std::size_t max_width,
                         DispatchKind kind) {
  return choose_with_extra(serial_estimate_ns, sections, max_width, kind, 0.0);
}

double gemm_serial_gflops(std::size_t scalar_bytes) {
  const detail::IsaTable& table = detail::active_table();
  return scalar_bytes == 8 ? table.d.blocking.serial_gflops : table.s.blocking.serial_gflops;
}

}  // namespace teamla::linalg
