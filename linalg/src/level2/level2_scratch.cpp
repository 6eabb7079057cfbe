// SPDX-License-Identifier: Apache-2.0
// level2_scratch.cpp: the thread's scratch buffer of the level-2 drivers (level2_internal.hpp).
//
// Per thread, so that calls on different threads never share one, and kept, so that a call
// after the first of its size allocates nothing. Asked for with std::nothrow: a refused
// allocation must not throw out of a BLAS call (docs/reliability.md); the driver runs its
// Fallback instead, and the old buffer stays for later calls.
#include <new>

#include "level2/level2_internal.hpp"

namespace teamla::linalg::level2_detail {
namespace {

constexpr std::align_val_t kAlign{64};

struct Buffer {
  std::byte* data = nullptr;
  std::size_t bytes = 0;
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { ::operator delete(data, kAlign); }
};

thread_local Buffer t_buffer;

}  // namespace

std::byte* scratch_bytes(std::size_t bytes) noexcept {
  Buffer& b = t_buffer;
  if (b.bytes < bytes) {
    // Grown by half again at least, so that a run of slowly growing calls reallocates rarely.
    const std::size_t grown = bytes > b.bytes + b.bytes / 2 ? bytes : b.bytes + b.bytes / 2;
    auto* fresh = static_cast<std::byte*>(::operator new(grown, kAlign, std::nothrow));
    if (fresh == nullptr) return nullptr;
    ::operator delete(b.data, kAlign);
    b.data = fresh;
    b.bytes = grown;
  }
  return b.data;
}

}  // namespace teamla::linalg::level2_detail
