// SPDX-License-Identifier: Apache-2.0
// dense_bench_blis.cpp: the BLIS arm of the dense benchmarks (gemm through the typed API
// bli_?gemm; threads by bli_thread_set_num_threads), on Google Benchmark. Run it with
// BLIS_ARCH_TYPE=0 on AVX-512 CPUs, the skx kernels, where BLIS would otherwise pick none (on
// an AVX2-only CPU they cannot run; scripts leave BLIS its own choice there).
#include <blis.h>

#include "dense_bench.hpp"

namespace {

class BlisArm {
 public:
  [[nodiscard]] std::string describe() const {
    return std::string("arch=") + bli_arch_string(bli_arch_query_id());
  }
  void set_threads(int threads) { bli_thread_set_num_threads(threads); }

  template <class T>
  void gemm(long m, long n, long k, const T* a, const T* b, T* c) {
    T one = 1;
    T zero = 0;
    if constexpr (sizeof(T) == 8) {
      bli_dgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &one, const_cast<T*>(a), 1, m,
                const_cast<T*>(b), 1, k, &zero, c, 1, m);
    } else {
      bli_sgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &one, const_cast<T*>(a), 1, m,
                const_cast<T*>(b), 1, k, &zero, c, 1, m);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  BlisArm arm;
  return teamla::bench::run_dense_bench(arm, argc, argv);
}
