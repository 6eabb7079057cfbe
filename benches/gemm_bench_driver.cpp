// SPDX-License-Identifier: Apache-2.0
// gemm_bench_driver.cpp: timing loop and JSON output of the gemm benchmarks.
#include "gemm_bench_driver.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/args.hpp"

namespace teamla::bench {
namespace {

struct Shape {
  long m, n, k;
};

std::vector<Shape> default_shapes() {
  std::vector<Shape> shapes;
  for (long n : {32, 48, 64, 96, 101, 128, 192, 256, 384, 512, 1024, 2048}) {
    shapes.push_back({n, n, n});
  }
  shapes.push_back({4096, 64, 64});
  shapes.push_back({64, 64, 4096});
  shapes.push_back({2048, 2048, 32});
  return shapes;
}

std::vector<Shape> parse_shapes(const std::string& list) {
  std::vector<Shape> shapes;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    long m = 0, n = 0, k = 0;
    if (std::sscanf(item.c_str(), "%ldx%ldx%ld", &m, &n, &k) == 3) {
      shapes.push_back({m, n, k});
    } else {
      m = std::atol(item.c_str());
      shapes.push_back({m, m, m});
    }
  }
  return shapes;
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Timing {
  double wall = 0;  // median per-call wall time
  double cpu = 0;   // median per-call CPU time of the calling thread
};

template <class Call>
Timing median_call_seconds(Call&& call, int batches) {
  call();  // warm-up: sizes workspaces, wakes threads, and a team's one-time measurements
  const double t0 = now_s();
  call();  // a warm call sizes the batches (the first can take ~1 ms more than the rest)
  const double first = std::max(now_s() - t0, 1e-7);
  const long per_batch = std::max(1L, static_cast<long>(0.010 / first));
  std::vector<double> wall;
  std::vector<double> cpu;
  for (int b = 0; b < batches; ++b) {
    const double s = now_s();
    const double c = thread_cpu_s();
    for (long i = 0; i < per_batch; ++i) {
      call();
    }
    cpu.push_back((thread_cpu_s() - c) / static_cast<double>(per_batch));
    wall.push_back((now_s() - s) / static_cast<double>(per_batch));
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

template <class T>
std::string run_shape(GemmArm& arm, int threads, const Shape& s, int batches) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<T> a(static_cast<std::size_t>(s.m * s.k));
  std::vector<T> b(static_cast<std::size_t>(s.k * s.n));
  std::vector<T> c(static_cast<std::size_t>(s.m * s.n), T(0));
  for (T& x : a) x = static_cast<T>(dist(rng));
  for (T& x : b) x = static_cast<T>(dist(rng));
  const auto call = [&] {
    if constexpr (sizeof(T) == 8) {
      arm.dgemm(s.m, s.n, s.k, a.data(), b.data(), c.data());
    } else {
      arm.sgemm(s.m, s.n, s.k, a.data(), b.data(), c.data());
    }
  };
  const Timing t = median_call_seconds(call, batches);
  const double flops =
      2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
  const double gflops = flops / t.wall / 1e9;
  const double gflops_cpu = flops / std::max(t.cpu, 1e-12) / 1e9;
  char line[320];
  std::snprintf(line, sizeof line,
                "{\"m\": %ld, \"n\": %ld, \"k\": %ld, \"seconds\": %.9g, \"gflops\": %.4g, "
                "\"cpu_seconds\": %.9g, \"gflops_cpu\": %.4g, \"width_used\": %d}",
                s.m, s.n, s.k, t.wall, gflops, t.cpu, gflops_cpu, arm.width_used());
  std::fprintf(stderr, "%-8s %dT %5ldx%5ldx%5ld %8.2f GF/s wall %8.2f GF/s cpu\n",
               arm.name().c_str(), threads, s.m, s.n, s.k, gflops, gflops_cpu);
  return line;
}

}  // namespace

int run_gemm_bench(GemmArm& arm, int argc, char** argv) {
  int threads = 1;
  int batches = 5;
  std::string type = "d";
  std::string json_path;
  std::vector<Shape> shapes = default_shapes();
  for (ArgCursor cursor(argc, argv); cursor.next();) {
    const std::string arg = cursor.name();
    const auto value = [&]() -> std::string { return cursor.has_value() ? cursor.value() : ""; };
    if (arg == "--threads") {
      threads = std::atoi(value().c_str());
    } else if (arg == "--type") {
      type = value();
    } else if (arg == "--shapes") {
      shapes = parse_shapes(value());
    } else if (arg == "--batches") {
      batches = std::max(1, std::atoi(value().c_str()));
    } else if (arg == "--json") {
      json_path = value();
    } else {
      std::fprintf(stderr, "unknown argument %s\n", arg.c_str());
      return 2;
    }
  }
  if (type != "d" && type != "s") {
    std::fprintf(stderr, "--type must be d or s\n");
    return 2;
  }
  arm.set_threads(threads);
  std::string out = "{\"arm\": \"" + arm.name() + "\", \"describe\": \"" + arm.describe() +
                    "\", \"threads\": " + std::to_string(threads) + ", \"type\": \"" + type +
                    "\", \"results\": [";
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    out += (i ? ", " : "") + (type == "d" ? run_shape<double>(arm, threads, shapes[i], batches)
                                          : run_shape<float>(arm, threads, shapes[i], batches));
  }
  out += "]}\n";
  if (json_path.empty()) {
    std::fputs(out.c_str(), stdout);
  } else {
    std::ofstream(json_path) << out;
  }
  return 0;
}

}  // namespace teamla::bench
