// SPDX-License-Identifier: Apache-2.0
// ops_avx2.hpp (internal): Avx2Ops<T>, the Ops (ukernel_simd.hpp) of the AVX2+FMA kernels for
// double and float, on 256-bit vectors. The AVX2 kernel files run them; the transposes of the
// AVX2 and AVX-512 kernel files load and store through them (transpose_avx2.hpp). Included
// only by files compiled with AVX2 and FMA at least; in an anonymous namespace, so that each
// kernel file's instantiations stay its own.
#pragma once

#include <immintrin.h>

#include "kernels/avx2/lane_mask_avx2.hpp"

namespace teamla::linalg::detail {
namespace {

template <class T>
struct Avx2Ops;

template <>
struct Avx2Ops<double> {
  using T = double;
  using V = __m256d;
  using Mask = LaneMask;
  static constexpr int kLanes = 4;
  static V zero() { return _mm256_setzero_pd(); }
  static V load(const T* p) { return _mm256_loadu_pd(p); }
  static V load_masked(const T* p, Mask m) { return _mm256_maskload_pd(p, m.bits); }
  static V broadcast(const T* p) { return _mm256_broadcast_sd(p); }
  static V fmadd(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V set1(T x) { return _mm256_set1_pd(x); }
  static void store(T* p, V v) { _mm256_storeu_pd(p, v); }
  static void store_masked(T* p, V v, Mask m) { store_first(p, v, m.count); }
  static Mask mask_of(int count) {
    const __m256i lanes = _mm256_setr_epi64x(0, 1, 2, 3);
    return {_mm256_cmpgt_epi64(_mm256_set1_epi64x(count), lanes), count};
  }
};

template <>
struct Avx2Ops<float> {
  using T = float;
  using V = __m256;
  using Mask = LaneMask;
  static constexpr int kLanes = 8;
  static V zero() { return _mm256_setzero_ps(); }
  static V load(const T* p) { return _mm256_loadu_ps(p); }
  static V load_masked(const T* p, Mask m) { return _mm256_maskload_ps(p, m.bits); }
  static V broadcast(const T* p) { return _mm256_broadcast_ss(p); }
  static V fmadd(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V set1(T x) { return _mm256_set1_ps(x); }
  static void store(T* p, V v) { _mm256_storeu_ps(p, v); }
  static void store_masked(T* p, V v, Mask m) { store_first(p, v, m.count); }
  static Mask mask_of(int count) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return {_mm256_cmpgt_epi32(_mm256_set1_epi32(count), lanes), count};
  }
};

}  // namespace
}  // namespace teamla::linalg::detail
