// SPDX-License-Identifier: Apache-2.0
// workspace.cpp: growing, page-aligned buffers (see workspace.hpp).
#include "teamla/linalg/workspace.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <utility>

#include "workspace_units.hpp"

namespace teamla::linalg {

Workspace::Workspace() = default;

Workspace::~Workspace() { release(); }

Workspace::Workspace(Workspace&& other) noexcept
    : per_rank_(std::move(other.per_rank_)), shared_(std::exchange(other.shared_, Block{})) {
  other.per_rank_.clear();
}

Workspace& Workspace::operator=(Workspace&& other) noexcept {
  if (this != &other) {
    release();
    per_rank_ = std::move(other.per_rank_);
    other.per_rank_.clear();
    shared_ = std::exchange(other.shared_, Block{});
  }
  return *this;
}

void Workspace::grow(Block& block, std::size_t bytes) {
  if (block.bytes >= bytes) {
    return;
  }
  // Grow by at least half again so a slowly increasing shape sequence reallocates O(log) times.
  replace(block, std::max(bytes, block.bytes + block.bytes / 2));
}

void Workspace::replace(Block& block, std::size_t bytes) {
  const std::size_t want = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* fresh = std::aligned_alloc(kAlignment, want);
  if (fresh == nullptr) {
    throw std::bad_alloc();
  }
  std::free(block.data);
  block.data = static_cast<std::byte*>(fresh);
  block.bytes = want;
}

void Workspace::free_block(Block& block) {
  std::free(block.data);
  block = Block{};
}

void Workspace::prepare(std::size_t width) {
  if (per_rank_.size() < width * kSlots) {
    per_rank_.resize(width * kSlots);
  }
}

void* Workspace::buffer(std::size_t rank, Slot slot, std::size_t bytes) {
  if (rank == 0 && per_rank_.empty()) {
    prepare(1);
  }
  Block& block = per_rank_[rank * kSlots + static_cast<std::size_t>(slot)];
  grow(block, bytes == 0 ? 1 : bytes);
  return block.data;
}

void* Workspace::shared_buffer(std::size_t bytes) {
  grow(shared_, bytes == 0 ? 1 : bytes);
  return shared_.data;
}

bool Workspace::try_prepare(std::size_t width) noexcept {
  try {
    prepare(width);
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

void* Workspace::try_buffer(std::size_t rank, Slot slot, std::size_t bytes) noexcept {
  try {
    return buffer(rank, slot, bytes);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

void* Workspace::try_shared_buffer(std::size_t bytes) noexcept {
  try {
    return shared_buffer(bytes);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

bool Workspace::try_equalize(std::size_t width) noexcept {
  const std::size_t ranks = std::min(width, per_rank_.size() / kSlots);
  try {
    for (std::size_t slot = 0; slot < kSlots; ++slot) {
      std::size_t largest = 0;
      for (std::size_t rank = 0; rank < ranks; ++rank) {
        largest = std::max(largest, per_rank_[rank * kSlots + slot].bytes);
      }
      if (largest == 0) continue;
      // To the largest exactly, not grow()'s half again: the ranks then stay equal, where growing
      // one past the others would start them leapfrogging at every section.
      for (std::size_t rank = 0; rank < ranks; ++rank) {
        Block& block = per_rank_[rank * kSlots + slot];
        if (block.bytes < largest) replace(block, largest);
      }
    }
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

std::size_t Workspace::reserved_bytes() const {
  std::size_t total = shared_.bytes;
  for (const Block& block : per_rank_) {
    total += block.bytes;
  }
  return total;
}

void Workspace::release() {
  for (Block& block : per_rank_) {
    free_block(block);
  }
  free_block(shared_);
}

Workspace& thread_local_workspace() {
  thread_local Workspace workspace;
  return workspace;
}

namespace detail {
namespace {
thread_local RankBuffers t_unit;  // the running unit's, or none
}  // namespace

RankBuffers running_unit() noexcept { return t_unit; }

RankBuffers unit_buffers() noexcept {
  return t_unit.ws != nullptr ? t_unit : RankBuffers{&thread_local_workspace(), 0};
}

UnitScope::UnitScope(RankBuffers buffers) noexcept : saved_(t_unit) { t_unit = buffers; }

UnitScope::~UnitScope() { t_unit = saved_; }
}  // namespace detail

}  // namespace teamla::linalg
