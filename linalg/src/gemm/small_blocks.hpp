// SPDX-License-Identifier: Apache-2.0
// small_blocks.hpp (internal): the blocking a kernel falls back to when its workspace cannot
// grow (a cgroup memory limit, RLIMIT_AS): packed blocks small enough for a fixed buffer on
// the calling thread's stack, so that the call still computes its result with no new memory.
//
// Every fallback takes its buffers before it writes anything, and each kernel's fallback
// covers exactly the part of the output that kernel owns, so a fallback in one unit of a
// claimed section changes nothing for the others. It is reported through
// team::note_shortfall(Shortfall::memory) (once per process on stderr, always counted).
#pragma once

#include <algorithm>
#include <cstddef>

#include "isa_dispatch.hpp"

namespace teamla::linalg::detail {

// kStackBlockBytes: the stack a fallback takes, half for packed A and half for packed B.
// 64 KiB fits the widest micro-panels (float 48 x 128 x 4 B = 24 KiB of A) within the
// smallest stacks that application threads are commonly given (glibc's default is 8 MiB;
// 128 KiB and up elsewhere).
constexpr std::size_t kStackBlockBytes = 64 * 1024;

// kStackBlockDepth: kc of the fallback blocking: a 128-deep micro-panel keeps most of the
// microkernel's rate while the blocks stay small.
constexpr index_t kStackBlockDepth = 128;

// small_blocking(): `ks` with mc, kc, nc shrunk so that an mc x kc block of A and a kc x nc
// panel of B each fit in half of kStackBlockBytes (in whole micro-panels).
template <class T>
KernelSet<T> small_blocking(const KernelSet<T>& ks) {
  KernelSet<T> small = ks;
  const index_t kc = std::min(ks.blocking.kc, kStackBlockDepth);
  const auto half_elems = static_cast<index_t>(kStackBlockBytes / 2 / sizeof(T));
  const index_t rows = half_elems / kc;
  small.blocking.kc = kc;
  small.blocking.mc = std::max<index_t>(ks.fns.mr, rows / ks.fns.mr * ks.fns.mr);
  small.blocking.nc = std::max<index_t>(ks.fns.nr, rows / ks.fns.nr * ks.fns.nr);
  return small;
}

// StackBlocks: the fallback's buffers. Declare one only in a function of its own that is not
// inlined, so that the normal path's frame never carries it.
struct alignas(64) StackBlocks {
  std::byte bytes[kStackBlockBytes];
  template <class T>
  T* a() {
    return reinterpret_cast<T*>(bytes);
  }
  template <class T>
  T* b() {
    return reinterpret_cast<T*>(bytes + kStackBlockBytes / 2);
  }
};

}  // namespace teamla::linalg::detail
