// SPDX-License-Identifier: Apache-2.0
// soak_report.cpp: the soak's verdict, its table on stdout and its JSON record.
#include <cstdio>

#include "soak.hpp"

namespace soak {
namespace {

std::uint64_t total(const std::array<std::atomic<std::uint64_t>, kRows>& counts) {
  std::uint64_t sum = 0;
  for (const auto& c : counts) sum += c.load();
  return sum;
}

double mib(std::uint64_t bytes) { return double(bytes) / (1024.0 * 1024.0); }

// JSON string contents: the few characters a call description or a CPU name can hold.
std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' || c == '\t') ? ' ' : c;
  }
  return out;
}

void json_counters(FILE* f, const teamla::engine::EngineCounters& c) {
  const auto& w = c.waits;
  std::fprintf(f,
               "  \"engine_counters\": {\"calls\": %llu, \"team_calls\": %llu, "
               "\"contended_calls\": %llu, \"pools_built\": %llu, \"pools_reused\": %llu, "
               "\"section_cost_ns\": %.1f, \"width_cap\": %zu,\n",
               (unsigned long long)c.calls, (unsigned long long)c.team_calls,
               (unsigned long long)c.contended_calls, (unsigned long long)c.pools_built,
               (unsigned long long)c.pools_reused, c.section_cost_ns, c.width_cap);
  std::fprintf(f,
               "    \"waits\": {\"sections\": %llu, \"join_sleeps\": %llu, \"barrier_sleeps\": "
               "%llu, \"member_parks\": %llu, \"preemptions\": %llu, \"throttle_activations\": "
               "%llu, \"stacked_waits\": %llu, \"members_left_out\": %llu, \"idle_arrivals\": "
               "%llu, \"late_joins\": %llu, \"cpu_moves\": %llu}},\n",
               (unsigned long long)w.sections, (unsigned long long)w.join_sleeps,
               (unsigned long long)w.barrier_sleeps, (unsigned long long)w.member_parks,
               (unsigned long long)w.preemptions, (unsigned long long)w.throttle_activations,
               (unsigned long long)w.stacked_waits, (unsigned long long)w.members_left_out,
               (unsigned long long)w.idle_arrivals, (unsigned long long)w.late_joins,
               (unsigned long long)w.cpu_moves);
}

void json_rows(FILE* f, const Stats& s) {
  std::fprintf(f, "  \"routines\": {");
  for (int row = 0; row < kRows; ++row) {
    std::fprintf(
        f, "%s\n    \"%s\": {\"calls\": %llu, \"failures\": %llu, \"wrong\": %llu}",
        row == 0 ? "" : ",", row_name(row).c_str(), (unsigned long long)s.calls[row].load(),
        (unsigned long long)s.failures[row].load(), (unsigned long long)s.wrong[row].load());
  }
  std::fprintf(f, "},\n");
}

}  // namespace

bool passed(const Stats& s, const Result& r) {
  return total(s.failures) == 0 && total(s.wrong) == 0 && s.child_failures.load() == 0 &&
         s.child_hangs.load() == 0 && r.watchdog.empty() && r.rss_ok();
}

void print_table(const Stats& s, const Result& r) {
  std::printf("%-14s %10s %9s %7s\n", "routine", "calls", "failures", "wrong");
  for (int row = 0; row < kRows; ++row) {
    std::printf("%-14s %10llu %9llu %7llu\n", row_name(row).c_str(),
                (unsigned long long)s.calls[row].load(), (unsigned long long)s.failures[row].load(),
                (unsigned long long)s.wrong[row].load());
  }
  std::printf("%-14s %10llu %9llu %7llu\n", "total", (unsigned long long)total(s.calls),
              (unsigned long long)total(s.failures), (unsigned long long)total(s.wrong));
  std::printf("forks %llu (child failures %llu, hangs %llu); affinity changes %llu\n",
              (unsigned long long)s.forks.load(), (unsigned long long)s.child_failures.load(),
              (unsigned long long)s.child_hangs.load(),
              (unsigned long long)s.affinity_changes.load());
  std::printf(
      "RSS MiB: start %.1f, end %.1f, max %.1f; bound: end <= start + %.1f: %s; "
      "heap in use MiB: start %.1f, end %.1f\n",
      mib(r.rss_start), mib(r.rss_end), mib(r.rss_max), mib(r.rss_bound),
      r.rss_ok() ? "ok" : "EXCEEDED", mib(r.heap_start), mib(r.heap_end));
  std::printf("worst call %.1f ms: %s\n", s.worst_ms, s.worst_call.c_str());
  const auto& c = r.counters;
  std::printf(
      "engine (%s): calls %llu, team %llu, contended %llu, pools built %llu, "
      "sections %llu, width cap %zu; abi mode %s\n",
      r.engine_mode.c_str(), (unsigned long long)c.calls, (unsigned long long)c.team_calls,
      (unsigned long long)c.contended_calls, (unsigned long long)c.pools_built,
      (unsigned long long)c.waits.sections, c.width_cap, r.abi_mode.c_str());
  if (!r.watchdog.empty()) std::printf("WATCHDOG: %s\n", r.watchdog.c_str());
  std::printf("soak: %s after %.0f s\n", passed(s, r) ? "PASSED" : "FAILED", r.seconds);
  std::fflush(stdout);
}

bool write_json(const std::string& path, const Stats& s, const Result& r) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::fprintf(f, "{\n  \"passed\": %s, \"seconds\": %.1f, \"threads\": %d, \"seed\": %llu,\n",
               passed(s, r) ? "true" : "false", r.seconds, r.threads, (unsigned long long)r.seed);
  std::fprintf(f, "  \"engine_mode\": \"%s\", \"abi_mode\": \"%s\", \"library\": \"%s\",\n",
               r.engine_mode.c_str(), r.abi_mode.c_str(), escaped(r.library).c_str());
  std::fprintf(f,
               "  \"machine\": {\"cpu\": \"%s\", \"cpus_online\": %ld, \"cpus_allowed\": %ld, "
               "\"kernel\": \"%s\"},\n",
               escaped(r.host.cpu).c_str(), r.host.cpus_online, r.host.cpus_allowed,
               escaped(r.host.kernel).c_str());
  std::fprintf(f, "  \"calls\": %llu, \"failures\": %llu, \"wrong\": %llu,\n",
               (unsigned long long)total(s.calls), (unsigned long long)total(s.failures),
               (unsigned long long)total(s.wrong));
  json_rows(f, s);
  std::fprintf(f,
               "  \"forks\": %llu, \"child_failures\": %llu, \"child_hangs\": %llu, "
               "\"affinity_changes\": %llu,\n",
               (unsigned long long)s.forks.load(), (unsigned long long)s.child_failures.load(),
               (unsigned long long)s.child_hangs.load(),
               (unsigned long long)s.affinity_changes.load());
  std::fprintf(f,
               "  \"rss_mib\": {\"start\": %.1f, \"end\": %.1f, \"max\": %.1f, \"bound\": %.1f, "
               "\"ok\": %s},\n  \"heap_in_use_mib\": {\"start\": %.1f, \"end\": %.1f},\n",
               mib(r.rss_start), mib(r.rss_end), mib(r.rss_max), mib(r.rss_bound),
               r.rss_ok() ? "true" : "false", mib(r.heap_start), mib(r.heap_end));
  std::lock_guard<std::mutex> lock(s.mutex);
  std::fprintf(f, "  \"worst_call\": {\"ms\": %.2f, \"call\": \"%s\"},\n", s.worst_ms,
               escaped(s.worst_call).c_str());
  json_counters(f, r.counters);
  std::fprintf(f, "  \"watchdog\": \"%s\",\n  \"first_problems\": [", escaped(r.watchdog).c_str());
  for (std::size_t i = 0; i < s.first_problems.size(); ++i) {
    std::fprintf(f, "%s\n    \"%s\"", i == 0 ? "" : ",", escaped(s.first_problems[i]).c_str());
  }
  std::fprintf(f, "]\n}\n");
  return std::fclose(f) == 0;
}

}  // namespace soak
