// SPDX-License-Identifier: Apache-2.0
// abi_level1.cpp: BLAS level 1 as LAPACK's inner loops call it, Fortran and CBLAS: ?dot(u|c),
// ?nrm2, ?asum, ?axpy, ?scal (and [zc][ds]scal), i?amax, ?swap, ?copy, ?rot (and zdrot, csrot).
//
// Every call runs on its caller (linalg's blas1.hpp: serial, vectorized), so that no call of
// LAPACK's loops ever touches a pool. Level 1 reports no errors: the reference returns at once
// on n <= 0, and nrm2, asum, scal and i?amax also on incx <= 0 (nrm2 since LAPACK 3.10 walks a
// negative increment, as the others do).
#include <complex>
#include <cstddef>

#include "call_log.hpp"
#include "exports.hpp"
#include "teamla/linalg/blas1.hpp"

namespace {

using teamla::blas::Entry;
using teamla::blas::note_served;
using teamla::linalg::index_t;
using teamla::linalg::real_t;
using teamla::linalg::strided;
using Zd = std::complex<double>;
using Cf = std::complex<float>;

template <class T>
teamla::linalg::VectorView<T> vec(T* x, int n, int inc) {
  return strided(x, index_t{n}, index_t{inc});
}

template <class T>
T dot(Entry entry, int n, const T* x, int incx, const T* y, int incy, bool conj_x) {
  if (n <= 0) return T(0);
  note_served(entry, 0, n, 0);
  return teamla::linalg::dot(vec(x, n, incx), vec(y, n, incy), conj_x);
}

template <class T>
real_t<T> nrm2(Entry entry, int n, const T* x, int incx) {
  if (n <= 0) return 0;
  note_served(entry, 0, n, 0);
  // The norm does not depend on the order: a negative increment walks the same elements.
  return teamla::linalg::nrm2(vec(x, n, incx < 0 ? -incx : incx));
}

template <class T>
real_t<T> asum(Entry entry, int n, const T* x, int incx) {
  if (n <= 0 || incx <= 0) return 0;
  note_served(entry, 0, n, 0);
  return teamla::linalg::asum(vec(x, n, incx));
}

template <class T>
void axpy(Entry entry, int n, T alpha, const T* x, int incx, T* y, int incy) {
  if (n <= 0 || alpha == T(0)) return;
  note_served(entry, 0, n, 0);
  teamla::linalg::axpy(alpha, vec(x, n, incx), vec(y, n, incy));
}

template <class T>
void scal(Entry entry, int n, T alpha, T* x, int incx) {
  if (n <= 0 || incx <= 0) return;
  note_served(entry, 0, n, 0);
  teamla::linalg::scal(alpha, vec(x, n, incx));
}

template <class T>
void scal_real(Entry entry, int n, real_t<T> alpha, T* x, int incx) {
  if (n <= 0 || incx <= 0) return;
  note_served(entry, 0, n, 0);
  teamla::linalg::scal_real(alpha, vec(x, n, incx));
}

// iamax(): the reference's 1-based index (0 when n < 1 or incx <= 0).
template <class T>
int iamax(Entry entry, int n, const T* x, int incx) {
  if (n < 1 || incx <= 0) return 0;
  note_served(entry, 0, n, 0);
  return static_cast<int>(teamla::linalg::iamax(vec(x, n, incx))) + 1;
}

template <class T>
void swap(Entry entry, int n, T* x, int incx, T* y, int incy) {
  if (n <= 0) return;
  note_served(entry, 0, n, 0);
  teamla::linalg::swap(vec(x, n, incx), vec(y, n, incy));
}

template <class T>
void copy(Entry entry, int n, const T* x, int incx, T* y, int incy) {
  if (n <= 0) return;
  note_served(entry, 0, n, 0);
  teamla::linalg::copy(vec(x, n, incx), vec(y, n, incy));
}

template <class T>
void rot(Entry entry, int n, T* x, int incx, T* y, int incy, real_t<T> c, real_t<T> s) {
  if (n <= 0) return;
  note_served(entry, 0, n, 0);
  teamla::linalg::rot(vec(x, n, incx), vec(y, n, incy), c, s);
}

}  // namespace

// The Fortran entries of one type: P the prefix, T the scalar, R its real type, and RP the
// prefix of the routines returning R (d, s, dz, sc). Arguments by reference; a function's
// result by value (gfortran returns COMPLEX*16 in registers, as std::complex is returned).
#define TEAMLA_FORTRAN_LEVEL1(P, T, R, RP)                                                       \
  TEAMLA_BLAS_EXPORT R RP##nrm2_(const int* n, const T* x, const int* incx) {                    \
    return nrm2(Entry::RP##nrm2_, *n, x, *incx);                                                 \
  }                                                                                              \
  TEAMLA_BLAS_EXPORT R RP##asum_(const int* n, const T* x, const int* incx) {                    \
    return asum(Entry::RP##asum_, *n, x, *incx);                                                 \
  }                                                                                              \
  TEAMLA_BLAS_EXPORT void P##axpy_(const int* n, const T* alpha, const T* x, const int* incx,    \
                                   T* y, const int* incy) {                                      \
    axpy(Entry::P##axpy_, *n, *alpha, x, *incx, y, *incy);                                       \
  }                                                                                              \
  TEAMLA_BLAS_EXPORT void P##scal_(const int* n, const T* alpha, T* x, const int* incx) {        \
    scal(Entry::P##scal_, *n, *alpha, x, *incx);                                                 \
  }                                                                                              \
  TEAMLA_BLAS_EXPORT int i##P##amax_(const int* n, const T* x, const int* incx) {                \
    return iamax(Entry::i##P##amax_, *n, x, *incx);                                              \
  }                                                                                              \
  TEAMLA_BLAS_EXPORT void P##swap_(const int* n, T* x, const int* incx, T* y, const int* incy) { \
    swap(Entry::P##swap_, *n, x, *incx, y, *incy);                                               \
  }                                                                                              \
  TEAMLA_BLAS_EXPORT void P##copy_(const int* n, const T* x, const int* incx, T* y,              \
                                   const int* incy) {                                            \
    copy(Entry::P##copy_, *n, x, *incx, y, *incy);                                               \
  }

// The CBLAS entries of one type: scalars by value for the real types, by pointer (void*) for
// the complex ones (VALUE reads one); cblas_i?amax returns the 0-based index.
#define TEAMLA_CBLAS_LEVEL1(P, T, R, RP, S, VALUE, PTR)                                        \
  TEAMLA_BLAS_EXPORT R cblas_##RP##nrm2(int n, const PTR x, int incx) {                        \
    return nrm2(Entry::cblas_##RP##nrm2, n, static_cast<const T*>(x), incx);                   \
  }                                                                                            \
  TEAMLA_BLAS_EXPORT R cblas_##RP##asum(int n, const PTR x, int incx) {                        \
    return asum(Entry::cblas_##RP##asum, n, static_cast<const T*>(x), incx);                   \
  }                                                                                            \
  TEAMLA_BLAS_EXPORT void cblas_##P##axpy(int n, S alpha, const PTR x, int incx, PTR y,        \
                                          int incy) {                                          \
    axpy(Entry::cblas_##P##axpy, n, VALUE(alpha), static_cast<const T*>(x), incx,              \
         static_cast<T*>(y), incy);                                                            \
  }                                                                                            \
  TEAMLA_BLAS_EXPORT void cblas_##P##scal(int n, S alpha, PTR x, int incx) {                   \
    scal(Entry::cblas_##P##scal, n, VALUE(alpha), static_cast<T*>(x), incx);                   \
  }                                                                                            \
  TEAMLA_BLAS_EXPORT std::size_t cblas_i##P##amax(int n, const PTR x, int incx) {              \
    const int index = iamax(Entry::cblas_i##P##amax, n, static_cast<const T*>(x), incx);       \
    return index > 0 ? static_cast<std::size_t>(index - 1) : 0;                                \
  }                                                                                            \
  TEAMLA_BLAS_EXPORT void cblas_##P##swap(int n, PTR x, int incx, PTR y, int incy) {           \
    swap(Entry::cblas_##P##swap, n, static_cast<T*>(x), incx, static_cast<T*>(y), incy);       \
  }                                                                                            \
  TEAMLA_BLAS_EXPORT void cblas_##P##copy(int n, const PTR x, int incx, PTR y, int incy) {     \
    copy(Entry::cblas_##P##copy, n, static_cast<const T*>(x), incx, static_cast<T*>(y), incy); \
  }

#define TEAMLA_REAL(value) (value)
#define TEAMLA_COMPLEX_D(pointer) (*static_cast<const Zd*>(pointer))
#define TEAMLA_COMPLEX_F(pointer) (*static_cast<const Cf*>(pointer))

extern "C" {
TEAMLA_FORTRAN_LEVEL1(d, double, double, d)
TEAMLA_FORTRAN_LEVEL1(s, float, float, s)
TEAMLA_FORTRAN_LEVEL1(z, Zd, double, dz)
TEAMLA_FORTRAN_LEVEL1(c, Cf, float, sc)
TEAMLA_CBLAS_LEVEL1(d, double, double, d, double, TEAMLA_REAL, double*)
TEAMLA_CBLAS_LEVEL1(s, float, float, s, float, TEAMLA_REAL, float*)
TEAMLA_CBLAS_LEVEL1(z, Zd, double, dz, const void*, TEAMLA_COMPLEX_D, void*)
TEAMLA_CBLAS_LEVEL1(c, Cf, float, sc, const void*, TEAMLA_COMPLEX_F, void*)

// The dot products.
TEAMLA_BLAS_EXPORT double ddot_(const int* n, const double* x, const int* incx, const double* y,
                                const int* incy) {
  return dot(Entry::ddot_, *n, x, *incx, y, *incy, false);
}
TEAMLA_BLAS_EXPORT float sdot_(const int* n, const float* x, const int* incx, const float* y,
                               const int* incy) {
  return dot(Entry::sdot_, *n, x, *incx, y, *incy, false);
}
TEAMLA_BLAS_EXPORT Zd zdotu_(const int* n, const Zd* x, const int* incx, const Zd* y,
                             const int* incy) {
  return dot(Entry::zdotu_, *n, x, *incx, y, *incy, false);
}
TEAMLA_BLAS_EXPORT Zd zdotc_(const int* n, const Zd* x, const int* incx, const Zd* y,
                             const int* incy) {
  return dot(Entry::zdotc_, *n, x, *incx, y, *incy, true);
}
TEAMLA_BLAS_EXPORT Cf cdotu_(const int* n, const Cf* x, const int* incx, const Cf* y,
                             const int* incy) {
  return dot(Entry::cdotu_, *n, x, *incx, y, *incy, false);
}
TEAMLA_BLAS_EXPORT Cf cdotc_(const int* n, const Cf* x, const int* incx, const Cf* y,
                             const int* incy) {
  return dot(Entry::cdotc_, *n, x, *incx, y, *incy, true);
}
TEAMLA_BLAS_EXPORT double cblas_ddot(int n, const double* x, int incx, const double* y, int incy) {
  return dot(Entry::cblas_ddot, n, x, incx, y, incy, false);
}
TEAMLA_BLAS_EXPORT float cblas_sdot(int n, const float* x, int incx, const float* y, int incy) {
  return dot(Entry::cblas_sdot, n, x, incx, y, incy, false);
}
TEAMLA_BLAS_EXPORT void cblas_zdotu_sub(int n, const void* x, int incx, const void* y, int incy,
                                        void* result) {
  *static_cast<Zd*>(result) = dot(Entry::cblas_zdotu_sub, n, static_cast<const Zd*>(x), incx,
                                  static_cast<const Zd*>(y), incy, false);
}
TEAMLA_BLAS_EXPORT void cblas_zdotc_sub(int n, const void* x, int incx, const void* y, int incy,
                                        void* result) {
  *static_cast<Zd*>(result) = dot(Entry::cblas_zdotc_sub, n, static_cast<const Zd*>(x), incx,
                                  static_cast<const Zd*>(y), incy, true);
}
TEAMLA_BLAS_EXPORT void cblas_cdotu_sub(int n, const void* x, int incx, const void* y, int incy,
                                        void* result) {
  *static_cast<Cf*>(result) = dot(Entry::cblas_cdotu_sub, n, static_cast<const Cf*>(x), incx,
                                  static_cast<const Cf*>(y), incy, false);
}
TEAMLA_BLAS_EXPORT void cblas_cdotc_sub(int n, const void* x, int incx, const void* y, int incy,
                                        void* result) {
  *static_cast<Cf*>(result) = dot(Entry::cblas_cdotc_sub, n, static_cast<const Cf*>(x), incx,
                                  static_cast<const Cf*>(y), incy, true);
}

// A complex vector scaled by a real alpha.
TEAMLA_BLAS_EXPORT void zdscal_(const int* n, const double* alpha, Zd* x, const int* incx) {
  scal_real(Entry::zdscal_, *n, *alpha, x, *incx);
}
TEAMLA_BLAS_EXPORT void csscal_(const int* n, const float* alpha, Cf* x, const int* incx) {
  scal_real(Entry::csscal_, *n, *alpha, x, *incx);
}
TEAMLA_BLAS_EXPORT void cblas_zdscal(int n, double alpha, void* x, int incx) {
  scal_real(Entry::cblas_zdscal, n, alpha, static_cast<Zd*>(x), incx);
}
TEAMLA_BLAS_EXPORT void cblas_csscal(int n, float alpha, void* x, int incx) {
  scal_real(Entry::cblas_csscal, n, alpha, static_cast<Cf*>(x), incx);
}

// The plane rotations (real c and s).
TEAMLA_BLAS_EXPORT void drot_(const int* n, double* x, const int* incx, double* y, const int* incy,
                              const double* c, const double* s) {
  rot(Entry::drot_, *n, x, *incx, y, *incy, *c, *s);
}
TEAMLA_BLAS_EXPORT void srot_(const int* n, float* x, const int* incx, float* y, const int* incy,
                              const float* c, const float* s) {
  rot(Entry::srot_, *n, x, *incx, y, *incy, *c, *s);
}
TEAMLA_BLAS_EXPORT void zdrot_(const int* n, Zd* x, const int* incx, Zd* y, const int* incy,
                               const double* c, const double* s) {
  rot(Entry::zdrot_, *n, x, *incx, y, *incy, *c, *s);
}
TEAMLA_BLAS_EXPORT void csrot_(const int* n, Cf* x, const int* incx, Cf* y, const int* incy,
                               const float* c, const float* s) {
  rot(Entry::csrot_, *n, x, *incx, y, *incy, *c, *s);
}
TEAMLA_BLAS_EXPORT void cblas_drot(int n, double* x, int incx, double* y, int incy, double c,
                                   double s) {
  rot(Entry::cblas_drot, n, x, incx, y, incy, c, s);
}
TEAMLA_BLAS_EXPORT void cblas_srot(int n, float* x, int incx, float* y, int incy, float c,
                                   float s) {
  rot(Entry::cblas_srot, n, x, incx, y, incy, c, s);
}
TEAMLA_BLAS_EXPORT void cblas_zdrot(int n, void* x, int incx, void* y, int incy, double c,
                                    double s) {
  rot(Entry::cblas_zdrot, n, static_cast<Zd*>(x), incx, static_cast<Zd*>(y), incy, c, s);
}
TEAMLA_BLAS_EXPORT void cblas_csrot(int n, void* x, int incx, void* y, int incy, float c, float s) {
  rot(Entry::cblas_csrot, n, static_cast<Cf*>(x), incx, static_cast<Cf*>(y), incy, c, s);
}
}  // extern "C"
