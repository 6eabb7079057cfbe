// SPDX-License-Identifier: Apache-2.0
// workload.hpp: every routine of CpuEngine on one set of inputs, for the fault tests.
//
// Workload::run() runs gemm (double, both operands as given and both transposed; float with B
// transposed), trsm, syrk (lower; upper on A^T), symm, trmm (A on the left and on the right),
// syr2k, potrf and potrs on inputs made from `seed`, and returns every output. Two runs agree
// (agree()) when each output matches to a tolerance that covers a different blocking (a fallback
// packs smaller blocks, so sums are reordered).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/engine_test_util.hpp"
#include "teamla/engine/cpu_engine.hpp"

namespace teamla::faults {

using engine::testing::TestMatrix;
using linalg::index_t;
using linalg::Op;

struct Outputs {
  std::vector<double> gemm_nn, gemm_tt, trsm, syrk_lower, syrk_upper, symm, trmm, trmm_right, syr2k,
      cholesky, solve;
  std::vector<float> sgemm_nt;
  index_t potrf_info = -1;
};

// Workload: the inputs and output buffers of one run, all allocated up front, so that run()
// itself allocates nothing and every allocation a fault sweep counts is the engine's own.
class Workload {
 public:
  Workload(index_t n, unsigned seed)
      : n_(n),
        a_(n, n),
        b_(n, n),
        c_(n, n),
        fa_(n, n),
        fb_(n, n),
        fc_(n, n),
        spd_(engine::testing::make_spd<double>(n, linalg::Layout::col_major, seed)),
        d1_(n, n),
        d2_(n, n),
        d3_(n, n),
        f1_(n, n) {
    engine::testing::fill_random(a_, seed);
    engine::testing::fill_random(b_, seed + 1);
    engine::testing::fill_random(c_, seed + 2);
    engine::testing::fill_random(fa_, seed + 3);
    engine::testing::fill_random(fb_, seed + 4);
    engine::testing::fill_random(fc_, seed + 5);
    for (auto* v :
         {&out_.gemm_nn, &out_.gemm_tt, &out_.trsm, &out_.syrk_lower, &out_.syrk_upper, &out_.symm,
          &out_.trmm, &out_.trmm_right, &out_.syr2k, &out_.cholesky, &out_.solve}) {
      v->resize(c_.storage.size());
    }
    out_.sgemm_nt.resize(fc_.storage.size());
  }

  [[nodiscard]] index_t n() const { return n_; }

  // run(): every routine on `e`; the outputs stay valid until the next run.
  const Outputs& run(engine::CpuEngine& e) {
    using linalg::Diag;
    using linalg::Side;
    using linalg::Uplo;
    reset(d1_, c_);
    e.gemm(Op::none, Op::none, 0.5, a_.cview(), b_.cview(), -1.0, d1_.view());
    keep(d1_, out_.gemm_nn);
    reset(d1_, c_);
    e.gemm(Op::transpose, Op::transpose, 1.0, a_.cview(), b_.cview(), 0.0, d1_.view());
    keep(d1_, out_.gemm_tt);
    reset(f1_, fc_);
    e.gemm(Op::none, Op::transpose, 1.0f, fa_.cview(), fb_.cview(), 1.0f, f1_.view());
    keep(f1_, out_.sgemm_nt);
    reset(d1_, b_);
    e.trsm(Side::left, Uplo::lower, Op::none, Diag::non_unit, 1.0, spd_.cview(), d1_.view());
    keep(d1_, out_.trsm);
    reset(d1_, c_);
    e.syrk(Uplo::lower, Op::none, -1.0, a_.cview(), 1.0, d1_.view());
    keep(d1_, out_.syrk_lower);
    reset(d1_, c_);
    e.syrk(Uplo::upper, Op::transpose, 1.0, b_.cview(), 0.5, d1_.view());
    keep(d1_, out_.syrk_upper);
    reset(d1_, c_);
    e.symm(Side::right, Uplo::upper, 0.5, a_.cview(), b_.cview(), 1.0, d1_.view());
    keep(d1_, out_.symm);
    reset(d1_, b_);
    e.trmm(Side::left, Uplo::lower, Op::transpose, Diag::unit, 2.0, a_.cview(), d1_.view());
    keep(d1_, out_.trmm);
    // A on the right: a row-major B to the left-side code, which packs it differently.
    reset(d1_, b_);
    e.trmm(Side::right, Uplo::upper, Op::none, Diag::non_unit, -0.5, a_.cview(), d1_.view());
    keep(d1_, out_.trmm_right);
    reset(d1_, c_);
    e.syr2k(Uplo::lower, Op::none, 1.0, a_.cview(), b_.cview(), 0.0, d1_.view());
    keep(d1_, out_.syr2k);
    reset(d2_, spd_);
    out_.potrf_info = e.potrf(Uplo::lower, d2_.view());
    keep(d2_, out_.cholesky);
    reset(d3_, b_);
    if (out_.potrf_info == 0) e.potrs(Uplo::lower, d2_.cview(), d3_.view());
    keep(d3_, out_.solve);
    return out_;
  }

 private:
  template <class T>
  static void reset(TestMatrix<T>& to, const TestMatrix<T>& from) {
    std::copy(from.storage.begin(), from.storage.end(), to.storage.begin());
  }
  template <class T>
  static void keep(const TestMatrix<T>& from, std::vector<T>& to) {
    std::copy(from.storage.begin(), from.storage.end(), to.begin());
  }

  index_t n_;
  TestMatrix<double> a_, b_, c_;
  TestMatrix<float> fa_, fb_, fc_;
  TestMatrix<double> spd_, d1_, d2_, d3_;
  TestMatrix<float> f1_;
  Outputs out_;
};

// disagreement(): "" when `got` matches `want`, else the first output that does not.
template <class T>
double max_relative_gap(const std::vector<T>& got, const std::vector<T>& want) {
  double worst = got.size() == want.size() ? 0.0 : 1e300;
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
    const double scale = std::max(1.0, std::abs(double(want[i])));
    worst = std::max(worst, std::abs(double(got[i]) - double(want[i])) / scale);
  }
  return worst;
}

inline std::string disagreement(const Outputs& got, const Outputs& want, index_t n) {
  const double tol_d = 1e-12 * double(n + 16);
  const double tol_s = 2e-5 * double(n + 16);
  // The solves amplify the factor's rounding by the condition number (make_spd: a few).
  const double tol_solve = 1e-10 * double(n + 16);
  if (got.potrf_info != want.potrf_info) return "potrf info";
  if (max_relative_gap(got.gemm_nn, want.gemm_nn) > tol_d) return "gemm NN";
  if (max_relative_gap(got.gemm_tt, want.gemm_tt) > tol_d) return "gemm TT";
  if (max_relative_gap(got.sgemm_nt, want.sgemm_nt) > tol_s) return "sgemm NT";
  if (max_relative_gap(got.trsm, want.trsm) > tol_solve) return "trsm";
  if (max_relative_gap(got.syrk_lower, want.syrk_lower) > tol_d) return "syrk lower";
  if (max_relative_gap(got.syrk_upper, want.syrk_upper) > tol_d) return "syrk upper";
  if (max_relative_gap(got.symm, want.symm) > tol_d) return "symm";
  if (max_relative_gap(got.trmm, want.trmm) > tol_d) return "trmm";
  if (max_relative_gap(got.trmm_right, want.trmm_right) > tol_d) return "trmm right";
  if (max_relative_gap(got.syr2k, want.syr2k) > tol_d) return "syr2k";
  if (max_relative_gap(got.cholesky, want.cholesky) > tol_solve) return "potrf";
  if (max_relative_gap(got.solve, want.solve) > tol_solve) return "potrs";
  return "";
}

}  // namespace teamla::faults
