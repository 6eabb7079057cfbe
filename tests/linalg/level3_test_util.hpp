// SPDX-License-Identifier: Apache-2.0
// level3_test_util.hpp: shared pieces of the SYMM/TRMM/SYR2K tests: random padded operands, the
// sizes every case runs at, and the error check against a long-double oracle.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "linalg/chol_test_util.hpp"

namespace teamla::test {

// The shapes (m, n) every combination runs at: empty, single, odd, past one register tile and
// past one recursion leaf (64 rows).
inline const std::vector<std::pair<index_t, index_t>>& level3_shapes() {
  static const std::vector<std::pair<index_t, index_t>> shapes{
      {0, 3}, {3, 0}, {1, 1}, {2, 5}, {7, 3}, {33, 17}, {70, 45}, {130, 9}};
  return shapes;
}

// random_padded(): a rows x cols operand in `layout` with `pad` extra per leading dimension,
// every stored element (padding included) random in [-1, 1].
template <class T>
Padded<T> random_padded(index_t rows, index_t cols, Layout layout, index_t pad,
                        std::mt19937_64& rng) {
  Padded<T> p(rows, cols, layout, pad);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (T& v : p.storage) v = static_cast<T>(dist(rng));
  return p;
}

// tolerance(): the bound on |computed - exact| for entries that are sums of k products of
// magnitude at most `scale` each, plus a beta term.
template <class T>
long double tolerance(index_t k, long double scale) {
  return 4.0L * std::numeric_limits<T>::epsilon() * (static_cast<long double>(k) + 4) * scale;
}

}  // namespace teamla::test
