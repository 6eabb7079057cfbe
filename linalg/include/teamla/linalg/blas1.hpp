// SPDX-License-Identifier: Apache-2.0
// blas1.hpp: the vector routines (BLAS level 1), as LAPACK's inner loops call them.
//
// Each runs serially on the calling thread, in portable code the compiler vectorizes (contiguous
// vectors; reductions in independent lanes), and never touches a pool: they are O(n) on vectors
// LAPACK's loops keep in cache, where a section would cost more than the work (docs/level2.md).
// T is float, double, std::complex<float> or std::complex<double>. Results and edge cases are
// the reference BLAS's (noted where it matters). Vectors of size 0 are no-ops; sizes of paired
// vectors must match (else InvalidArgument, nothing written). Any inc is walked as the view
// says (element i at data[i * inc]), which is how the reference walks a negative incx in
// ?dot, ?axpy, ?copy, ?swap, ?rot and ?nrm2; its ?asum, ?scal and i?amax instead return at
// once for incx <= 0, which a BLAS interface must mirror itself.
#pragma once

#include "teamla/linalg/errors.hpp"
#include "teamla/linalg/vector_view.hpp"

namespace teamla::linalg {

// dot(): sum x_i * y_i, or sum conj(x_i) * y_i with `conj_x` (complex dotc; ignored for real).
template <class T>
T dot(VectorView<const T> x, VectorView<const T> y, bool conj_x = false);

// nrm2(): the Euclidean norm, without overflow or underflow in the intermediate sums (Blue's
// scaling, as the reference nrm2 since LAPACK 3.10): a NaN anywhere gives NaN, else an Inf
// gives Inf.
template <class T>
real_t<T> nrm2(VectorView<const T> x);

// asum(): sum |x_i| (real), sum |re x_i| + |im x_i| (complex), as the reference ?asum.
template <class T>
real_t<T> asum(VectorView<const T> x);

// axpy(): y += alpha * x. alpha == 0 returns without reading x.
template <class T>
void axpy(T alpha, VectorView<const T> x, VectorView<T> y);

// scal(): x = alpha * x, element by element as the reference does (alpha == 0 gives 0 * x, so
// a NaN in x stays NaN). Complex products are Fortran's, on the parts, without std::complex's
// Inf/NaN recovery; complex alpha == 1 returns at once, as the reference zscal (3.11) does (the
// product would turn (1, Inf) into (NaN, Inf)). scal_real() is csscal/zdscal: a complex x scaled by
// a real alpha, part by part.
template <class T>
void scal(T alpha, VectorView<T> x);
template <class T>
void scal_real(real_t<T> alpha, VectorView<T> x);

// iamax(): the 0-based index of the first element of largest |x_i| (complex: |re| + |im|), as
// the reference i?amax: a NaN is never larger than anything, and a NaN first element is always
// returned (nothing compares larger than it). -1 for an empty vector.
template <class T>
index_t iamax(VectorView<const T> x);

template <class T>
void swap(VectorView<T> x, VectorView<T> y);

// copy(): y = x.
template <class T>
void copy(VectorView<const T> x, VectorView<T> y);

// rot(): the plane rotation (x_i, y_i) = (c x_i + s y_i, c y_i - s x_i), with real c and s
// (drot, srot, zdrot, csrot). For complex vectors c and s multiply as the complex (c, 0) and
// (s, 0), as in the reference's Fortran: an Inf in one part of x_i makes the other part NaN.
template <class T>
void rot(VectorView<T> x, VectorView<T> y, real_t<T> c, real_t<T> s);

}  // namespace teamla::linalg
