// SPDX-License-Identifier: Apache-2.0
// foreign_load.cpp: runs a command while N child processes each burn PCT % of a CPU.
// Not Google Benchmark: a load generator for the other benches; it times nothing.
//
//   foreign_load --load N:PCT [--period-us P] [--duration-s D] [-- command args...]
//
// This is the "other user's processes at 5-13 %" of faer#107, made reproducible: each load
// child alternates a busy spin of PCT % of a period with a sleep for the rest (default period
// 10 ms, so 10 % is 1 ms of work every 10 ms, a burst shorter than a scheduler slice that
// still takes a CPU away from a spinning waiter). Children start at staggered phases so they
// do not burst in lock-step.
//
// With a command, the load runs until the command exits and foreign_load exits with the
// command's status (128 + signal if it was killed). Without one, it runs for --duration-s
// seconds, or until SIGINT/SIGTERM. Cleanup: the load children and the command die with
// foreign_load (prctl(PR_SET_PDEATHSIG)), and SIGINT/SIGTERM/SIGHUP are forwarded to them.
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/args.hpp"

namespace {

using teamla::bench::ArgCursor;

constexpr int kMaxChildren = 256;

// Pids that the signal handler forwards to; written before the handlers are installed.
pid_t g_children[kMaxChildren + 1];
volatile sig_atomic_t g_child_count = 0;
volatile sig_atomic_t g_stop_signal = 0;

struct Options {
  int load_processes = 0;
  int load_percent = 0;
  long period_us = 10000;
  double duration_s = 0;  // 0: until the command ends, or until a signal
  char** command = nullptr;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "foreign_load: %s\n"
               "usage: foreign_load --load N:PCT [--period-us P] [--duration-s D] "
               "[-- command args...]\n",
               why);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options options;
  for (ArgCursor cursor(argc, argv); cursor.next();) {
    const std::string arg = cursor.name();
    auto value = [&]() -> std::string {
      if (!cursor.has_value()) usage(("missing value after " + arg).c_str());
      return cursor.value();
    };
    if (arg == "--") {
      if (cursor.has_value()) options.command = cursor.rest();
      break;
    } else if (arg == "--load") {
      std::string spec = value();
      if (std::sscanf(spec.c_str(), "%d:%d", &options.load_processes, &options.load_percent) != 2)
        usage("--load takes N:PCT, e.g. 2:10");
    } else if (arg == "--period-us") {
      options.period_us = std::atol(value().c_str());
    } else if (arg == "--duration-s") {
      options.duration_s = std::atof(value().c_str());
    } else {
      usage(("unknown argument " + arg).c_str());
    }
  }
  if (options.load_processes < 0 || options.load_processes > kMaxChildren)
    usage("N must be in 0..256");
  if (options.load_percent < 0 || options.load_percent > 100) usage("PCT must be in 0..100");
  if (options.period_us < 100) usage("--period-us must be at least 100");
  if (!options.command && options.duration_s <= 0 && options.load_processes == 0)
    usage("nothing to do");
  return options;
}

long long now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void sleep_until(long long deadline_ns) {
  timespec ts{static_cast<time_t>(deadline_ns / 1000000000LL),
              static_cast<long>(deadline_ns % 1000000000LL)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

// Dies when the parent dies, even if the parent was SIGKILLed.
void die_with_parent(pid_t parent, int signal) {
  prctl(PR_SET_PDEATHSIG, signal);
  if (getppid() != parent) _exit(0);  // the parent died before prctl took effect
}

[[noreturn]] void burn(const Options& options, int index, pid_t parent) {
  die_with_parent(parent, SIGKILL);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  const long long period = options.period_us * 1000LL;
  const long long busy = period * options.load_percent / 100;
  long long start = now_ns() + period * index / (options.load_processes + 1);
  sleep_until(start);
  volatile unsigned long sink = 0;
  for (;;) {
    const long long busy_end = start + busy;
    while (now_ns() < busy_end) sink = sink + 1;
    start += period;
    const long long now = now_ns();
    if (start < now) start = now;  // preempted past a whole period: do not catch up in a burst
    if (busy < period) sleep_until(start);
  }
}

void forward_signal(int signal) {
  g_stop_signal = signal;
  for (int i = 0; i < g_child_count; ++i) kill(g_children[i], signal == SIGHUP ? SIGTERM : signal);
}

void stop_children(const std::vector<pid_t>& load) {
  for (pid_t pid : load) kill(pid, SIGKILL);
  for (pid_t pid : load) {
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  const pid_t self = getpid();

  // Block the stop signals while forking, so no child exists that the handler cannot see.
  sigset_t stop_set, previous;
  sigemptyset(&stop_set);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stop_set, s);
  sigprocmask(SIG_BLOCK, &stop_set, &previous);

  std::vector<pid_t> load;
  for (int i = 0; i < options.load_processes && options.load_percent > 0; ++i) {
    const pid_t pid = fork();
    if (pid < 0) {
      std::perror("foreign_load: fork");
      stop_children(load);
      return 1;
    }
    if (pid == 0) {
      sigprocmask(SIG_SETMASK, &previous, nullptr);
      burn(options, i, self);
    }
    load.push_back(pid);
    g_children[g_child_count] = pid;
    g_child_count = g_child_count + 1;
  }

  pid_t command = -1;
  if (options.command) {
    command = fork();
    if (command < 0) {
      std::perror("foreign_load: fork");
      stop_children(load);
      return 1;
    }
    if (command == 0) {
      sigprocmask(SIG_SETMASK, &previous, nullptr);
      die_with_parent(self, SIGTERM);
      execvp(options.command[0], options.command);
      std::fprintf(stderr, "foreign_load: cannot run %s: %s\n", options.command[0],
                   std::strerror(errno));
      _exit(127);
    }
    g_children[g_child_count] = command;
    g_child_count = g_child_count + 1;
  }

  struct sigaction action {};
  action.sa_handler = forward_signal;
  sigemptyset(&action.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaction(s, &action, nullptr);
  sigprocmask(SIG_SETMASK, &previous, nullptr);

  int code = 0;
  if (command > 0) {
    int status = 0;
    while (waitpid(command, &status, 0) < 0) {
      if (errno != EINTR) {
        status = 1 << 8;
        break;
      }
    }
    code = exit_code_of(status);
  } else {
    const long long end =
        options.duration_s > 0 ? now_ns() + static_cast<long long>(options.duration_s * 1e9) : 0;
    while (!g_stop_signal && (end == 0 || now_ns() < end)) {
      const long long next = now_ns() + 50000000LL;  // re-check the stop flag every 50 ms
      timespec ts{static_cast<time_t>(next / 1000000000LL), static_cast<long>(next % 1000000000LL)};
      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
    }
    if (g_stop_signal) code = 128 + g_stop_signal;
  }
  stop_children(load);
  return code;
}
