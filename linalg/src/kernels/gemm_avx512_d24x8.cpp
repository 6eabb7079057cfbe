// gemm_avx512_d24x8.cpp: the AVX-512 double microkernel, MR x NR = 24 x 8.
//
// Register budget (32 zmm): 3 x 8 = 24 accumulators, 3 A vectors, B broadcast straight from
// memory into the FMA (embedded broadcast), 5 spare. Per k step: 3 loads of A, 8 broadcasts
// of B (one 64-byte line of packed B), 24 FMAs; enough independent accumulators to cover the
// FMA latency on both pipes (4 cycles x 2 pipes = 8 in flight needed, 24 available).
// Compiled with -mavx512f/dq/bw/vl (file name rule in linalg/CMakeLists.txt).
#include <immintrin.h>

#include "../isa_dispatch.hpp"
#include "../pack.hpp"
#include "ukernel_simd.hpp"

namespace teamla::linalg::detail {
namespace {

struct Ops {
  using T = double;
  using V = __m512d;
  using Mask = __mmask8;
  static constexpr int kLanes = 8;
  static V zero() { return _mm512_setzero_pd(); }
  static V load(const T* p) { return _mm512_loadu_pd(p); }
  static V load_masked(const T* p, Mask m) { return _mm512_maskz_loadu_pd(m, p); }
  static V broadcast(const T* p) { return _mm512_set1_pd(*p); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static V set1(T x) { return _mm512_set1_pd(x); }
  static void store(T* p, V v) { _mm512_storeu_pd(p, v); }
  static void store_masked(T* p, V v, Mask m) { _mm512_mask_storeu_pd(p, m, v); }
  static Mask mask_of(int count) { return static_cast<Mask>((1u << count) - 1u); }
};

constexpr int kMr = 24;
constexpr int kNr = 8;

}  // namespace

KernelFns<double> avx512_kernels_d24x8() {
  KernelFns<double> fns;
  fns.name = "avx512_d24x8";
  fns.mr = kMr;
  fns.nr = kNr;
  fns.packed = &simd_kernel_rows<Ops, kMr, kNr, false>;
  fns.unpacked_a = &simd_kernel_rows<Ops, kMr, kNr, true>;
  fns.unpacked_ab = &simd_kernel_ab_rows<Ops, kMr, kNr>;
  fns.pack_a = &pack_a_panels<Ops, double, kMr>;
  fns.pack_b = &pack_b_panels<Ops, double, kNr>;
  return fns;
}

}  // namespace teamla::linalg::detail
