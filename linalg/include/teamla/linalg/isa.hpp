// SPDX-License-Identifier: Apache-2.0
// isa.hpp: which vector instruction set the kernels run with.
//
// The ISA is chosen once per process: by cpuid (the widest the CPU and OS support), unless
// the environment variable TEAMLA_ISA=avx512|avx2|ref forces one. An invalid value, or a
// forced ISA the CPU lacks, makes the first call that needs kernels throw std::runtime_error
// naming the value. Thread-safe.
#pragma once

#include <string_view>

namespace teamla::linalg {

// active_isa() returns "avx512", "avx2" or "ref".
std::string_view active_isa();

}  // namespace teamla::linalg
