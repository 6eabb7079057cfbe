// SPDX-License-Identifier: Apache-2.0
// swap.cpp: ?swap, x <-> y.
#include "level1/level1_internal.hpp"
#include "teamla/linalg/blas1.hpp"

namespace teamla::linalg {

template <class T>
void swap(VectorView<T> x, VectorView<T> y) {
  level1_detail::check_same_size("swap", x.size, y.size);
  if (x.size <= 0) return;
  if (x.inc == 1 && y.inc == 1) {
    for (index_t i = 0; i < x.size; ++i) {
      const T t = x.data[i];
      x.data[i] = y.data[i];
      y.data[i] = t;
    }
    return;
  }
  for (index_t i = 0; i < x.size; ++i) {
    const T t = x[i];
    x[i] = y[i];
    y[i] = t;
  }
}

template void swap<float>(VectorView<float>, VectorView<float>);
template void swap<double>(VectorView<double>, VectorView<double>);
template void swap<std::complex<float>>(VectorView<std::complex<float>>,
                                        VectorView<std::complex<float>>);
template void swap<std::complex<double>>(VectorView<std::complex<double>>,
                                         VectorView<std::complex<double>>);

}  // namespace teamla::linalg
