// gemm_avx512_s48x8.cpp: the AVX-512 float microkernel, MR x NR = 48 x 8.
//
// Same register plan as the double kernel (24 accumulators, 3 A vectors, B broadcast from
// memory), with 16 floats per zmm. Packed B is 32 bytes per k step.
#include <immintrin.h>

#include "../isa_dispatch.hpp"
#include "../pack.hpp"
#include "ukernel_simd.hpp"

namespace teamla::linalg::detail {
namespace {

struct Ops {
  using T = float;
  using V = __m512;
  using Mask = __mmask16;
  static constexpr int kLanes = 16;
  static V zero() { return _mm512_setzero_ps(); }
  static V load(const T* p) { return _mm512_loadu_ps(p); }
  static V load_masked(const T* p, Mask m) { return _mm512_maskz_loadu_ps(m, p); }
  static V broadcast(const T* p) { return _mm512_set1_ps(*p); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V set1(T x) { return _mm512_set1_ps(x); }
  static void store(T* p, V v) { _mm512_storeu_ps(p, v); }
  static void store_masked(T* p, V v, Mask m) { _mm512_mask_storeu_ps(p, m, v); }
  static Mask mask_of(int count) { return static_cast<Mask>((1u << count) - 1u); }
};

constexpr int kMr = 48;
constexpr int kNr = 8;

}  // namespace

KernelFns<float> avx512_kernels_s48x8() {
  KernelFns<float> fns;
  fns.name = "avx512_s48x8";
  fns.mr = kMr;
  fns.nr = kNr;
  fns.packed = &simd_kernel_rows<Ops, kMr, kNr, false>;
  fns.unpacked_a = &simd_kernel_rows<Ops, kMr, kNr, true>;
  fns.unpacked_ab = &simd_kernel_ab_rows<Ops, kMr, kNr>;
  fns.pack_a = &pack_a_panels<Ops, float, kMr>;
  fns.pack_b = &pack_b_panels<Ops, float, kNr>;
  return fns;
}

}  // namespace teamla::linalg::detail
