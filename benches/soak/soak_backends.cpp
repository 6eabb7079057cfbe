// SPDX-License-Identifier: Apache-2.0
// soak_backends.cpp: the soak's two ways to call the routines: libteamla_blas.so through
// dlopen (as blas_calls does, so the library's own process engine and environment apply) and
// a shared CpuEngine through an adapter that maps the reference flags to the engine's enums.
#include <dlfcn.h>

#include "soak.hpp"

namespace soak {
namespace {

using teamla::engine::CpuEngine;
using teamla::engine::Diag;
using teamla::engine::Op;
using teamla::engine::Side;
using teamla::engine::Uplo;
using teamla::linalg::col_major;

// The reference Fortran prototypes (hidden string lengths omitted, as C callers do).
template <class T>
struct AbiRoutines {
  void (*gemm)(const char*, const char*, const int*, const int*, const int*, const T*, const T*,
               const int*, const T*, const int*, const T*, T*, const int*) = nullptr;
  void (*trsm)(const char*, const char*, const char*, const char*, const int*, const int*, const T*,
               const T*, const int*, T*, const int*) = nullptr;
  void (*syrk)(const char*, const char*, const int*, const int*, const T*, const T*, const int*,
               const T*, T*, const int*) = nullptr;
  void (*potrf)(const char*, const int*, T*, const int*, int*) = nullptr;
  void (*potrs)(const char*, const int*, const int*, const T*, const int*, T*, const int*,
                int*) = nullptr;
};

template <class Fn>
bool resolve(void* library, const char* symbol, Fn& fn, std::string& error) {
  fn = reinterpret_cast<Fn>(dlsym(library, symbol));
  if (fn == nullptr) error = std::string("no ") + symbol + " in the library";
  return fn != nullptr;
}

template <class T>
bool resolve_all(void* library, char p, AbiRoutines<T>& r, std::string& error) {
  const auto sym = [p](const char* rest) { return std::string(1, p) + rest; };
  return resolve(library, sym("gemm_").c_str(), r.gemm, error) &&
         resolve(library, sym("trsm_").c_str(), r.trsm, error) &&
         resolve(library, sym("syrk_").c_str(), r.syrk, error) &&
         resolve(library, sym("potrf_").c_str(), r.potrf, error) &&
         resolve(library, sym("potrs_").c_str(), r.potrs, error);
}

class Abi final : public Backend {
 public:
  AbiRoutines<double> d;
  AbiRoutines<float> s;

  const char* name() const override { return "abi"; }
  void gemm(char ta, char tb, int m, int n, int k, double alpha, const double* a, int lda,
            const double* b, int ldb, double beta, double* c, int ldc) override {
    d.gemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
  }
  void gemm(char ta, char tb, int m, int n, int k, float alpha, const float* a, int lda,
            const float* b, int ldb, float beta, float* c, int ldc) override {
    s.gemm(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
  }
  void trsm(char side, char uplo, char ta, char diag, int m, int n, double alpha, const double* a,
            int lda, double* b, int ldb) override {
    d.trsm(&side, &uplo, &ta, &diag, &m, &n, &alpha, a, &lda, b, &ldb);
  }
  void trsm(char side, char uplo, char ta, char diag, int m, int n, float alpha, const float* a,
            int lda, float* b, int ldb) override {
    s.trsm(&side, &uplo, &ta, &diag, &m, &n, &alpha, a, &lda, b, &ldb);
  }
  void syrk(char uplo, char trans, int n, int k, double alpha, const double* a, int lda,
            double beta, double* c, int ldc) override {
    d.syrk(&uplo, &trans, &n, &k, &alpha, a, &lda, &beta, c, &ldc);
  }
  void syrk(char uplo, char trans, int n, int k, float alpha, const float* a, int lda, float beta,
            float* c, int ldc) override {
    s.syrk(&uplo, &trans, &n, &k, &alpha, a, &lda, &beta, c, &ldc);
  }
  int potrf(char uplo, int n, double* a, int lda) override {
    int info = 0;
    d.potrf(&uplo, &n, a, &lda, &info);
    return info;
  }
  int potrf(char uplo, int n, float* a, int lda) override {
    int info = 0;
    s.potrf(&uplo, &n, a, &lda, &info);
    return info;
  }
  int potrs(char uplo, int n, int nrhs, const double* a, int lda, double* b, int ldb) override {
    int info = 0;
    d.potrs(&uplo, &n, &nrhs, a, &lda, b, &ldb, &info);
    return info;
  }
  int potrs(char uplo, int n, int nrhs, const float* a, int lda, float* b, int ldb) override {
    int info = 0;
    s.potrs(&uplo, &n, &nrhs, a, &lda, b, &ldb, &info);
    return info;
  }
};

Op op(char c) { return c == 'N' ? Op::none : Op::transpose; }
Uplo uplo_of(char c) { return c == 'L' ? Uplo::lower : Uplo::upper; }

// Engine: the reference convention on CpuEngine views. Exceptions propagate to the caller,
// which counts them as failures.
class Engine final : public Backend {
 public:
  explicit Engine(CpuEngine& engine) : e_(engine) {}
  const char* name() const override { return "engine"; }
  void gemm(char ta, char tb, int m, int n, int k, double alpha, const double* a, int lda,
            const double* b, int ldb, double beta, double* c, int ldc) override {
    run_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
  void gemm(char ta, char tb, int m, int n, int k, float alpha, const float* a, int lda,
            const float* b, int ldb, float beta, float* c, int ldc) override {
    run_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
  void trsm(char side, char uplo, char ta, char diag, int m, int n, double alpha, const double* a,
            int lda, double* b, int ldb) override {
    run_trsm(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb);
  }
  void trsm(char side, char uplo, char ta, char diag, int m, int n, float alpha, const float* a,
            int lda, float* b, int ldb) override {
    run_trsm(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb);
  }
  void syrk(char uplo, char trans, int n, int k, double alpha, const double* a, int lda,
            double beta, double* c, int ldc) override {
    run_syrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
  }
  void syrk(char uplo, char trans, int n, int k, float alpha, const float* a, int lda, float beta,
            float* c, int ldc) override {
    run_syrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
  }
  int potrf(char uplo, int n, double* a, int lda) override { return run_potrf(uplo, n, a, lda); }
  int potrf(char uplo, int n, float* a, int lda) override { return run_potrf(uplo, n, a, lda); }
  int potrs(char uplo, int n, int nrhs, const double* a, int lda, double* b, int ldb) override {
    return run_potrs(uplo, n, nrhs, a, lda, b, ldb);
  }
  int potrs(char uplo, int n, int nrhs, const float* a, int lda, float* b, int ldb) override {
    return run_potrs(uplo, n, nrhs, a, lda, b, ldb);
  }

 private:
  template <class T>
  void run_gemm(char ta, char tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b,
                int ldb, T beta, T* c, int ldc) {
    const auto va = ta == 'N' ? col_major(a, m, k, lda) : col_major(a, k, m, lda);
    const auto vb = tb == 'N' ? col_major(b, k, n, ldb) : col_major(b, n, k, ldb);
    e_.gemm(op(ta), op(tb), alpha, va, vb, beta, col_major(c, m, n, ldc));
  }
  template <class T>
  void run_trsm(char side, char uplo, char ta, char diag, int m, int n, T alpha, const T* a,
                int lda, T* b, int ldb) {
    const int na = side == 'L' ? m : n;
    e_.trsm(side == 'L' ? Side::left : Side::right, uplo_of(uplo), op(ta),
            diag == 'U' ? Diag::unit : Diag::non_unit, alpha, col_major(a, na, na, lda),
            col_major(b, m, n, ldb));
  }
  template <class T>
  void run_syrk(char uplo, char trans, int n, int k, T alpha, const T* a, int lda, T beta, T* c,
                int ldc) {
    const auto va = trans == 'N' ? col_major(a, n, k, lda) : col_major(a, k, n, lda);
    e_.syrk(uplo_of(uplo), op(trans), alpha, va, beta, col_major(c, n, n, ldc));
  }
  template <class T>
  int run_potrf(char uplo, int n, T* a, int lda) {
    return static_cast<int>(e_.potrf(uplo_of(uplo), col_major(a, n, n, lda)));
  }
  template <class T>
  int run_potrs(char uplo, int n, int nrhs, const T* a, int lda, T* b, int ldb) {
    e_.potrs(uplo_of(uplo), col_major(a, n, n, lda), col_major(b, n, nrhs, ldb));
    return 0;
  }

  CpuEngine& e_;
};

}  // namespace

std::unique_ptr<Backend> open_abi(const std::string& path, std::string& error) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    error = dlerror();
    return nullptr;
  }
  auto abi = std::make_unique<Abi>();
  if (!resolve_all(library, 'd', abi->d, error) || !resolve_all(library, 's', abi->s, error)) {
    return nullptr;
  }
  return abi;
}

std::unique_ptr<Backend> engine_backend(CpuEngine& engine) {
  return std::make_unique<Engine>(engine);
}

}  // namespace soak
