// SPDX-License-Identifier: Apache-2.0
// workspace.hpp: reusable, aligned scratch memory for the packing buffers of the kernels.
//
// A Workspace owns one set of buffers per participant rank (packed A, packed B, spare
// scratch) and one set shared by all ranks of a section. Buffers only grow: after the first
// call of a given shape, later calls allocate nothing. Contents are not preserved when a
// buffer grows.
//
// Threads: a Workspace serves one routine call at a time. Before a section, the leader calls
// prepare(width); inside the section, rank r may call buffer(r, ...) concurrently with the
// other ranks (each rank touches only its own slots). shared_buffer() is sized by the leader
// before the section and then read/written by all participants under the section's own
// synchronisation (barriers).
//
//   teamla::linalg::Workspace ws;          // cheap: allocates nothing until used
//   exec.workspace = &ws;                  // reused by every call that gets this Exec
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace teamla::linalg {

class Workspace {
 public:
  // Slot names the buffers a rank owns.
  enum class Slot : unsigned char { pack_a, pack_b, scratch };
  static constexpr std::size_t kSlots = 3;
  // kAlignment: buffers start on a 4 KiB page, so packed panels are cache-line and page
  // aligned and the first vector load of a panel never splits a line.
  static constexpr std::size_t kAlignment = 4096;

  Workspace();
  ~Workspace();
  Workspace(Workspace&&) noexcept;
  Workspace& operator=(Workspace&&) noexcept;
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  // prepare() makes slots exist for ranks 0..width-1. Leader only, outside sections.
  void prepare(std::size_t width);
  // buffer() returns rank's `slot` buffer with room for at least `bytes`, kAlignment-aligned.
  // rank < the width given to prepare() (rank 0 always works).
  [[nodiscard]] void* buffer(std::size_t rank, Slot slot, std::size_t bytes);
  // shared_buffer() returns the buffer shared by a section's ranks. Leader only, outside
  // sections (size it first, then hand the pointer to the participants).
  [[nodiscard]] void* shared_buffer(std::size_t bytes);
  // try_prepare(), try_buffer(), try_shared_buffer(): the same, but false or nullptr where
  // buffer() would throw std::bad_alloc, so that a kernel can fall back to small blocks on
  // its stack (linalg/src/gemm/small_blocks.hpp) before it has written anything.
  [[nodiscard]] bool try_prepare(std::size_t width) noexcept;
  [[nodiscard]] void* try_buffer(std::size_t rank, Slot slot, std::size_t bytes) noexcept;
  [[nodiscard]] void* try_shared_buffer(std::size_t bytes) noexcept;
  // try_equalize() grows each slot of ranks 0..width-1 to the largest that slot is among
  // them, so that a unit that ran on one rank finds its buffers on any other (the units of a
  // claimed section land on whichever participant claims them). Leader only, outside
  // sections, and only while no caller holds a per-rank buffer: a grown slot moves. False
  // where memory ran out (the slots grown so far stay grown).
  [[nodiscard]] bool try_equalize(std::size_t width) noexcept;
  // reserved_bytes() is the memory currently held by all buffers.
  [[nodiscard]] std::size_t reserved_bytes() const;
  // release() frees every buffer (the next call allocates again).
  void release();

  // typed helpers
  template <class T>
  [[nodiscard]] T* buffer_of(std::size_t rank, Slot slot, std::size_t count) {
    return static_cast<T*>(buffer(rank, slot, count * sizeof(T)));
  }
  template <class T>
  [[nodiscard]] T* try_buffer_of(std::size_t rank, Slot slot, std::size_t count) noexcept {
    return static_cast<T*>(try_buffer(rank, slot, count * sizeof(T)));
  }

 private:
  struct Block {
    std::byte* data = nullptr;
    std::size_t bytes = 0;
  };
  static void grow(Block& block, std::size_t bytes);
  static void replace(Block& block, std::size_t bytes);  // a fresh block of `bytes`
  static void free_block(Block& block);

  std::vector<Block> per_rank_;  // kSlots entries per rank
  Block shared_;
};

// thread_local_workspace() is the calling thread's own Workspace, used when Exec::workspace is
// null. It lives until the thread exits.
Workspace& thread_local_workspace();

}  // namespace teamla::linalg
