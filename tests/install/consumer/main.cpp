// A program outside the tree that sees teamla only through its installed package.
#include <cstdio>

#include "teamla/team/machine.hpp"

int main() {
  const unsigned cpus = teamla::team::affinity_cpu_count();
  std::printf("consumer: teamla sees %u CPUs\n", cpus);
  return cpus >= 1 ? 0 : 1;
}
