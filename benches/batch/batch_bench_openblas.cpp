// SPDX-License-Identifier: Apache-2.0
// batch_bench_openblas.cpp: the baseline arm of the batched GEMM benchmark, `#pragma omp
// parallel for` over the items, each a cblas_?gemm call with OpenBLAS at 1 thread, so that the
// parallelism is the loop's alone; on Google Benchmark (batch_bench.hpp). Run it with
// OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset and no OMP_* / GOMP_*.
#include <cblas.h>

#include "batch_bench.hpp"

extern "C" char* openblas_get_corename();

namespace {

class OpenmpOpenblasArm {
 public:
  [[nodiscard]] std::string describe() const {
    return std::string("core=") + openblas_get_corename();
  }
  void set_threads(int threads) {
    openblas_set_num_threads(1);
    threads_ = threads;
  }
  template <class T>
  void run(teamla::bench::Batch<T>& batch) {
    const int n = batch.n;
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int i = 0; i < batch.count; ++i) {
      const T* a = batch.a.data() + batch.at(i);
      const T* b = batch.b.data() + batch.at(i);
      T* c = batch.c.data() + batch.at(i);
      if constexpr (sizeof(T) == 8) {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
      } else {
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0F, a, n, b, n, 0.0F, c,
                    n);
      }
    }
  }

 private:
  int threads_ = 1;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  OpenmpOpenblasArm arm;
  return teamla::bench::run_batch_bench(arm, argc, argv);
}
