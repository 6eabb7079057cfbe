// SPDX-License-Identifier: Apache-2.0
// The batched CBLAS GEMMs in d, s, z and c, with the signatures of MKL and OpenBLAS (0.3.27+)
// (z and c take scalars by pointer and matrices as void pointers; CblasConjTrans conjugates):
//   cblas_?gemm_batch: groups of items; group g has one set of transposes, sizes, scalars and
//     leading dimensions for its group_size[g] items, whose matrices are the next group_size[g]
//     entries of a_array, b_array, c_array.
//   cblas_?gemm_batch_strided: one set of arguments; item i's A, B, C at a + i * stridea,
//     b + i * strideb, c + i * stridec.
// Every group (or the strided call's arguments) is checked before anything is computed; the
// first illegal argument is reported to cblas_xerbla and nothing is written. There is no
// reference implementation to number errors after, so a position is that of the argument in
// the call as written (layout 1, transa 2, ... group_size 16; for the strided form, stridea 10,
// stridec 17, batch_size 18), in either layout. Pointers to matrices that will be read or
// written are checked too, after every group's other arguments (a null one is reported at its
// array's position): the batch runs on the team, where a bad pointer could not be reported.
// linalg::gemm_batch() checks them before it writes anything, so a call of up to kSliceGroups
// groups (one engine batch) leaves that scan to it; a longer call scans them ahead of its first
// engine batch.
#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <optional>

#include "abi_routines.hpp"
#include "cblas_decode.hpp"
#include "exports.hpp"

namespace {

using teamla::blas::CblasCall;
using teamla::blas::Entry;
using teamla::blas::note_served;
using teamla::blas::report_cblas_error;
using teamla::linalg::col_major;
using teamla::linalg::GemmGroup;
using teamla::linalg::GemmItem;
using teamla::linalg::index_t;
using teamla::linalg::Op;
using teamla::linalg::row_major;

bool trans_ok(int trans) { return teamla::blas::cblas_trans_letter(trans) != '\0'; }
bool transposed(int trans) {
  return teamla::blas::is_transposed(teamla::blas::cblas_trans_letter(trans));
}
// op_of_trans(): the Op of a checked transpose; CblasConjTrans conjugates a complex T only.
template <class T>
Op op_of_trans(int trans) {
  if (teamla::linalg::is_complex_v<T> && trans == teamla::blas::kCblasConjTrans) {
    return Op::conj_transpose;
  }
  return transposed(trans) ? Op::transpose : Op::none;
}

// Group: one product's arguments as the caller wrote them (batch positions in comments).
template <class T>
struct Group {
  int trans_a, trans_b;  // 2, 3
  int m, n, k;           // 4, 5, 6
  T alpha;               // 7
  int lda, ldb;          // 9, 11
  T beta;                // 12
  int ldc;               // 14
};

// Positions of the group form; the strided form's differ from ldb on (see strided_position).
constexpr int kPosA = 8, kPosB = 10, kPosC = 13, kPosLdb = 11, kPosLdc = 14;

// check_group(): the group-form position of the first illegal argument of `g`, or 0. A and C
// are stored as written: row-major storage has a row's length as its leading dimension.
template <class T>
int check_group(bool row_major_layout, const Group<T>& g) {
  if (!trans_ok(g.trans_a)) return 2;
  if (!trans_ok(g.trans_b)) return 3;
  if (g.m < 0) return 4;
  if (g.n < 0) return 5;
  if (g.k < 0) return 6;
  const bool ta = transposed(g.trans_a);
  const bool tb = transposed(g.trans_b);
  // Stored A is m x k (k x m transposed); B k x n (n x k); C m x n.
  const int a_inner = row_major_layout ? (ta ? g.m : g.k) : (ta ? g.k : g.m);
  const int b_inner = row_major_layout ? (tb ? g.k : g.n) : (tb ? g.n : g.k);
  const int c_inner = row_major_layout ? g.n : g.m;
  if (g.lda < std::max(1, a_inner)) return 9;
  if (g.ldb < std::max(1, b_inner)) return kPosLdb;
  if (g.ldc < std::max(1, c_inner)) return kPosLdc;
  return 0;
}

template <class T>
bool has_product(const Group<T>& g) {
  return g.alpha != T(0) && g.k > 0 && g.m > 0 && g.n > 0;
}
// writes_c(): the reference quick return: nothing to do for an empty C, or with no product
// and beta == 1.
template <class T>
bool writes_c(const Group<T>& g) {
  return g.m > 0 && g.n > 0 && (has_product(g) || g.beta != T(1));
}

// check_pointers(): the position of a matrix pointer that the product would use and is null.
template <class T>
int check_pointers(const Group<T>& g, const T* a, const T* b, const T* c) {
  if (has_product(g) && a == nullptr) return kPosA;
  if (has_product(g) && b == nullptr) return kPosB;
  if (writes_c(g) && c == nullptr) return kPosC;
  return 0;
}

// make_item(): the linalg item of a checked group; an item with nothing to do is empty, and
// one without a product reads neither A nor B (they may be null).
template <class T>
GemmItem<T> make_item(bool row_major_layout, const Group<T>& g, const T* a, const T* b, T* c) {
  GemmItem<T> item;
  item.c = col_major<T>(nullptr, 0, 0);
  item.a = col_major<const T>(nullptr, 0, 0);
  item.b = col_major<const T>(nullptr, 0, 0);
  if (!writes_c(g)) return item;
  const auto view = [row_major_layout](auto* data, index_t rows, index_t cols, index_t ld) {
    return row_major_layout ? row_major(data, rows, cols, ld) : col_major(data, rows, cols, ld);
  };
  item.beta = g.beta;
  item.c = view(c, g.m, g.n, g.ldc);
  if (!has_product(g)) {
    item.alpha = T(0);
    item.a = view(static_cast<const T*>(nullptr), g.m, 0, std::max(1, row_major_layout ? 1 : g.m));
    item.b = view(static_cast<const T*>(nullptr), 0, g.n, std::max(1, row_major_layout ? g.n : 1));
    return item;
  }
  const bool ta = transposed(g.trans_a);
  const bool tb = transposed(g.trans_b);
  item.alpha = g.alpha;
  item.op_a = op_of_trans<T>(g.trans_a);
  item.op_b = op_of_trans<T>(g.trans_b);
  item.a = ta ? view(a, g.k, g.m, g.lda) : view(a, g.m, g.k, g.lda);
  item.b = tb ? view(b, g.n, g.k, g.ldb) : view(b, g.k, g.n, g.ldb);
  return item;
}

// GroupArrays: the group form's arrays, as passed.
template <class T>
struct GroupArrays {
  bool row_major_layout;
  const int *trans_a, *trans_b, *m, *n, *k;
  const T* alpha;
  const T* const* a;
  const int* lda;
  const T* const* b;
  const int* ldb;
  const T* beta;
  T* const* c;
  const int* ldc;
  [[nodiscard]] Group<T> group(int g) const {
    return {trans_a[g], trans_b[g], m[g], n[g], k[g], alpha[g], lda[g], ldb[g], beta[g], ldc[g]};
  }
};

// kSliceGroups: the groups one engine batch covers, kept on the stack (no allocation on the
// ABI path): a call with more groups runs as consecutive batches of this many groups. 64: a few
// KiB of stack, and up to it linalg's own pointer check serves alone (docs/perf/batch.md).
constexpr int kSliceGroups = 64;

// report_group(): an illegal argument of group g at `position` (the caller's own, in either
// layout: see the top of this file).
void report_group(const char* name, int position, int g) {
  report_cblas_error(position, name, false, "Illegal value in group %d\n", g);
}

// check_groups(): reports the first illegal argument of any group and returns false, or
// returns true with every group legal; the matrix pointers only if `pointers`.
template <class T>
bool check_groups(const char* name, const GroupArrays<T>& arr, int group_count,
                  const int* group_size, bool pointers) {
  for (int g = 0; g < group_count; ++g) {
    if (group_size[g] < 0) {
      report_cblas_error(16, name, false, "Illegal group_size in group %d\n", g);
      return false;
    }
    if (const int position = check_group(arr.row_major_layout, arr.group(g))) {
      report_group(name, position, g);
      return false;
    }
  }
  std::size_t item = 0;
  for (int g = 0; pointers && g < group_count; ++g) {
    const Group<T> group = arr.group(g);
    for (int i = 0; i < group_size[g]; ++i, ++item) {
      if (const int position = check_pointers(group, arr.a[item], arr.b[item], arr.c[item])) {
        report_group(name, position, g);
        return false;
      }
    }
  }
  return true;
}

// run_groups(): a checked call as linalg groups (GemmGroup: the shape once, the items' matrices
// by pointer), kSliceGroups at a time. Returns false having reported a null matrix pointer
// that linalg refused (only in a call of one slice, where nothing has been written).
template <class T>
bool run_groups(const char* name, const GroupArrays<T>& arr, int group_count,
                const int* group_size) {
  std::size_t first_item = 0;
  for (int first = 0; first < group_count; first += kSliceGroups) {
    std::array<GemmGroup<T>, kSliceGroups> groups;
    const int slice = std::min(kSliceGroups, group_count - first);
    const std::size_t slice_first_item = first_item;
    for (int g = 0; g < slice; ++g) {
      GemmGroup<T>& group = groups[static_cast<std::size_t>(g)];
      group.shape =
          make_item<T>(arr.row_major_layout, arr.group(first + g), nullptr, nullptr, nullptr);
      group.count = static_cast<std::size_t>(group_size[first + g]);
      group.a = arr.a + first_item;
      group.b = arr.b + first_item;
      group.c = arr.c + first_item;
      first_item += group.count;
    }
    if (first_item == slice_first_item) continue;  // a slice of empty groups needs no engine
    const std::optional<teamla::blas::NullMatrix> null = teamla::blas::gemm_batch(
        std::span<const GemmGroup<T>>(groups.data(), static_cast<std::size_t>(slice)));
    if (null) {
      const int position = null->array == 'a' ? kPosA : null->array == 'b' ? kPosB : kPosC;
      report_group(name, position, first + static_cast<int>(null->group));
      return false;
    }
  }
  return true;
}

template <class T>
void cblas_gemm_batch(Entry entry, const char* name, int layout, const int* trans_a,
                      const int* trans_b, const int* m, const int* n, const int* k, const T* alpha,
                      const T** a, const int* lda, const T** b, const int* ldb, const T* beta,
                      T** c, const int* ldc, int group_count, const int* group_size) {
  const CblasCall call(name, layout);
  if (!call.legal()) return;
  const GroupArrays<T> arr{
      call.row_major(), trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc};
  if (group_count < 0) {
    report_cblas_error(15, name, false, "Illegal group_count, %d\n", group_count);
    return;
  }
  if (!check_groups(name, arr, group_count, group_size, group_count > kSliceGroups)) return;
  if (!run_groups(name, arr, group_count, group_size)) return;
  const Group<T> first = group_count > 0 ? arr.group(0) : Group<T>{};
  note_served(entry, first.m, first.n, first.k);
}

// strided_position(): the strided form's position of a group-form position (stridea and
// strideb sit after lda and ldb).
int strided_position(int position) {
  if (position <= 9) return position;
  if (position <= 11) return position + 1;  // b 11, ldb 12
  return position + 2;                      // beta 14, c 15, ldc 16
}

// extent(): the elements one stored matrix spans (its C, for the overlap check).
index_t extent(bool row_major_layout, int m, int n, int ld) {
  if (m == 0 || n == 0) return 0;
  return row_major_layout ? static_cast<index_t>(m - 1) * ld + n
                          : static_cast<index_t>(n - 1) * ld + m;
}

// check_strided(): the strided form's position of its first illegal argument, or 0.
template <class T>
int check_strided(bool row_major_layout, const Group<T>& g, const T* a, int stridea, const T* b,
                  int strideb, const T* c, int stridec, int batch_size) {
  if (const int position = check_group(row_major_layout, g)) return strided_position(position);
  if (stridea < 0) return 10;
  if (strideb < 0) return 13;
  // The Cs may be written concurrently: none may overlap the next.
  if (batch_size > 1 && writes_c(g) && stridec < extent(row_major_layout, g.m, g.n, g.ldc)) {
    return 17;
  }
  if (batch_size < 0) return 18;
  if (batch_size == 0) return 0;
  return strided_position(check_pointers(g, a, b, c));
}

template <class T>
void cblas_gemm_batch_strided(Entry entry, const char* name, int layout, const Group<T>& g,
                              const T* a, int stridea, const T* b, int strideb, T* c, int stridec,
                              int batch_size) {
  const CblasCall call(name, layout);
  if (!call.legal()) return;
  const bool row = call.row_major();
  if (const int position = check_strided(row, g, a, stridea, b, strideb, c, stridec, batch_size)) {
    report_cblas_error(position, name, false);
    return;
  }
  if (batch_size > 0 && writes_c(g)) {
    // Without a product the matrices are not read: their strides do not apply.
    const bool product = has_product(g);
    teamla::blas::gemm_batch_strided(make_item(row, g, a, b, c), product ? stridea : 0,
                                     product ? strideb : 0, stridec, batch_size);
  }
  note_served(entry, g.m, g.n, g.k);
}

}  // namespace

extern "C" {

TEAMLA_BLAS_EXPORT void cblas_dgemm_batch(
    int layout, const int* transa_array, const int* transb_array, const int* m_array,
    const int* n_array, const int* k_array, const double* alpha_array, const double** a_array,
    const int* lda_array, const double** b_array, const int* ldb_array, const double* beta_array,
    double** c_array, const int* ldc_array, int group_count, const int* group_size) {
  cblas_gemm_batch(Entry::cblas_dgemm_batch, "cblas_dgemm_batch", layout, transa_array,
                   transb_array, m_array, n_array, k_array, alpha_array, a_array, lda_array,
                   b_array, ldb_array, beta_array, c_array, ldc_array, group_count, group_size);
}

TEAMLA_BLAS_EXPORT void cblas_sgemm_batch(
    int layout, const int* transa_array, const int* transb_array, const int* m_array,
    const int* n_array, const int* k_array, const float* alpha_array, const float** a_array,
    const int* lda_array, const float** b_array, const int* ldb_array, const float* beta_array,
    float** c_array, const int* ldc_array, int group_count, const int* group_size) {
  cblas_gemm_batch(Entry::cblas_sgemm_batch, "cblas_sgemm_batch", layout, transa_array,
                   transb_array, m_array, n_array, k_array, alpha_array, a_array, lda_array,
                   b_array, ldb_array, beta_array, c_array, ldc_array, group_count, group_size);
}

TEAMLA_BLAS_EXPORT void cblas_dgemm_batch_strided(int layout, int transa, int transb, int m, int n,
                                                  int k, double alpha, const double* a, int lda,
                                                  int stridea, const double* b, int ldb,
                                                  int strideb, double beta, double* c, int ldc,
                                                  int stridec, int batch_size) {
  cblas_gemm_batch_strided(Entry::cblas_dgemm_batch_strided, "cblas_dgemm_batch_strided", layout,
                           Group<double>{transa, transb, m, n, k, alpha, lda, ldb, beta, ldc}, a,
                           stridea, b, strideb, c, stridec, batch_size);
}

TEAMLA_BLAS_EXPORT void cblas_sgemm_batch_strided(int layout, int transa, int transb, int m, int n,
                                                  int k, float alpha, const float* a, int lda,
                                                  int stridea, const float* b, int ldb, int strideb,
                                                  float beta, float* c, int ldc, int stridec,
                                                  int batch_size) {
  cblas_gemm_batch_strided(Entry::cblas_sgemm_batch_strided, "cblas_sgemm_batch_strided", layout,
                           Group<float>{transa, transb, m, n, k, alpha, lda, ldb, beta, ldc}, a,
                           stridea, b, strideb, c, stridec, batch_size);
}

// The complex forms pass scalars and matrices as void pointers (MKL's cblas.h): the arrays of
// matrix pointers are read as arrays of pointers to the scalar type, as MKL and OpenBLAS read
// them.
TEAMLA_BLAS_EXPORT void cblas_zgemm_batch(
    int layout, const int* transa_array, const int* transb_array, const int* m_array,
    const int* n_array, const int* k_array, const void* alpha_array, const void** a_array,
    const int* lda_array, const void** b_array, const int* ldb_array, const void* beta_array,
    void** c_array, const int* ldc_array, int group_count, const int* group_size) {
  using Z = std::complex<double>;
  cblas_gemm_batch(
      Entry::cblas_zgemm_batch, "cblas_zgemm_batch", layout, transa_array, transb_array, m_array,
      n_array, k_array, static_cast<const Z*>(alpha_array), reinterpret_cast<const Z**>(a_array),
      lda_array, reinterpret_cast<const Z**>(b_array), ldb_array, static_cast<const Z*>(beta_array),
      reinterpret_cast<Z**>(c_array), ldc_array, group_count, group_size);
}

TEAMLA_BLAS_EXPORT void cblas_cgemm_batch(
    int layout, const int* transa_array, const int* transb_array, const int* m_array,
    const int* n_array, const int* k_array, const void* alpha_array, const void** a_array,
    const int* lda_array, const void** b_array, const int* ldb_array, const void* beta_array,
    void** c_array, const int* ldc_array, int group_count, const int* group_size) {
  using C = std::complex<float>;
  cblas_gemm_batch(
      Entry::cblas_cgemm_batch, "cblas_cgemm_batch", layout, transa_array, transb_array, m_array,
      n_array, k_array, static_cast<const C*>(alpha_array), reinterpret_cast<const C**>(a_array),
      lda_array, reinterpret_cast<const C**>(b_array), ldb_array, static_cast<const C*>(beta_array),
      reinterpret_cast<C**>(c_array), ldc_array, group_count, group_size);
}

TEAMLA_BLAS_EXPORT void cblas_zgemm_batch_strided(int layout, int transa, int transb, int m, int n,
                                                  int k, const void* alpha, const void* a, int lda,
                                                  int stridea, const void* b, int ldb, int strideb,
                                                  const void* beta, void* c, int ldc, int stridec,
                                                  int batch_size) {
  using Z = std::complex<double>;
  cblas_gemm_batch_strided(Entry::cblas_zgemm_batch_strided, "cblas_zgemm_batch_strided", layout,
                           Group<Z>{transa, transb, m, n, k, *static_cast<const Z*>(alpha), lda,
                                    ldb, *static_cast<const Z*>(beta), ldc},
                           static_cast<const Z*>(a), stridea, static_cast<const Z*>(b), strideb,
                           static_cast<Z*>(c), stridec, batch_size);
}

TEAMLA_BLAS_EXPORT void cblas_cgemm_batch_strided(int layout, int transa, int transb, int m, int n,
                                                  int k, const void* alpha, const void* a, int lda,
                                                  int stridea, const void* b, int ldb, int strideb,
                                                  const void* beta, void* c, int ldc, int stridec,
                                                  int batch_size) {
  using C = std::complex<float>;
  cblas_gemm_batch_strided(Entry::cblas_cgemm_batch_strided, "cblas_cgemm_batch_strided", layout,
                           Group<C>{transa, transb, m, n, k, *static_cast<const C*>(alpha), lda,
                                    ldb, *static_cast<const C*>(beta), ldc},
                           static_cast<const C*>(a), stridea, static_cast<const C*>(b), strideb,
                           static_cast<C*>(c), stridec, batch_size);
}

}  // extern "C"
