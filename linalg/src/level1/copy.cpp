// SPDX-License-Identifier: Apache-2.0
// copy.cpp: ?copy, y = x.
#include "level1/level1_internal.hpp"
#include "teamla/linalg/blas1.hpp"

namespace teamla::linalg {

template <class T>
void copy(VectorView<const T> x, VectorView<T> y) {
  level1_detail::check_same_size("copy", x.size, y.size);
  if (x.size <= 0) return;
  if (x.inc == 1 && y.inc == 1) {
    for (index_t i = 0; i < x.size; ++i) y.data[i] = x.data[i];
    return;
  }
  for (index_t i = 0; i < x.size; ++i) y[i] = x[i];
}

template void copy<float>(VectorView<const float>, VectorView<float>);
template void copy<double>(VectorView<const double>, VectorView<double>);
template void copy<std::complex<float>>(VectorView<const std::complex<float>>,
                                        VectorView<std::complex<float>>);
template void copy<std::complex<double>>(VectorView<const std::complex<double>>,
                                         VectorView<std::complex<double>>);

}  // namespace teamla::linalg
