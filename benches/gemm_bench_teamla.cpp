// SPDX-License-Identifier: Apache-2.0
// gemm_bench_teamla.cpp: the teamla arm of the gemm benchmark (a held team of T threads).
#include <memory>
#include <optional>

#include "gemm_bench_driver.hpp"
#include "teamla/linalg/blas3.hpp"
#include "teamla/linalg/isa.hpp"
#include "teamla/linalg/workspace.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace {

using namespace teamla;

class TeamlaArm final : public bench::GemmArm {
 public:
  [[nodiscard]] std::string name() const override { return "teamla"; }
  [[nodiscard]] std::string describe() const override {
    return "isa=" + std::string(linalg::active_isa());
  }
  void set_threads(int threads) override {
    if (threads > 1) {
      pool_ = team::Pool::builder().threads(static_cast<std::size_t>(threads)).build();
      team_.emplace(pool_->acquire(static_cast<std::size_t>(threads)));
      exec_.team = &*team_;
    }
    exec_.workspace = &workspace_;
  }
  void dgemm(long m, long n, long k, const double* a, const double* b, double* c) override {
    run(m, n, k, a, b, c);
  }
  void sgemm(long m, long n, long k, const float* a, const float* b, float* c) override {
    run(m, n, k, a, b, c);
  }
  [[nodiscard]] int width_used() const override {
    return static_cast<int>(exec_.stats.max_width_used);
  }

 private:
  template <class T>
  void run(long m, long n, long k, const T* a, const T* b, T* c) {
    linalg::gemm<T>(linalg::Op::none, linalg::Op::none, T(1), linalg::col_major(a, m, k),
                    linalg::col_major(b, k, n), T(0), linalg::col_major(c, m, n), exec_);
  }

  std::unique_ptr<team::Pool> pool_;
  std::optional<team::Team> team_;
  linalg::Workspace workspace_;
  linalg::Exec exec_;
};

}  // namespace

int main(int argc, char** argv) {
  TeamlaArm arm;
  return bench::run_gemm_bench(arm, argc, argv);
}
