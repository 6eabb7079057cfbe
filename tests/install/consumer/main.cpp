// SPDX-License-Identifier: Apache-2.0
// main.cpp: a program outside the tree that sees teamla only through its installed package.
#include <cstdio>

#include "teamla/team/machine.hpp"
#include "teamla/version.hpp"

int main() {
  const unsigned cpus = teamla::team::affinity_cpu_count();
  std::printf("consumer: teamla %.*s sees %u CPUs\n", static_cast<int>(teamla::kVersion.size()),
              teamla::kVersion.data(), cpus);
  return cpus >= 1 ? 0 : 1;
}
