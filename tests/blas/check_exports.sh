#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check_exports.sh LIBRARY: LIBRARY's dynamic symbol table defines exactly the documented
# BLAS/LAPACK/CBLAS routines and thread-control calls (docs/blas.md) and nothing else: no
# teamla internals, no C++ runtime symbols.
set -u
expected="cblas_dgemm cblas_dgemm_batch cblas_dgemm_batch_strided cblas_sgemm_batch
cblas_sgemm_batch_strided cblas_dsyrk cblas_dtrsm cblas_sgemm cblas_ssyrk cblas_strsm dgemm_
dpotrf_ dpotrs_ dsyrk_ dtrsm_ sgemm_ spotrf_ spotrs_ ssyrk_ strsm_
cblas_dsymm cblas_ssymm cblas_dtrmm cblas_strmm cblas_dsyr2k cblas_ssyr2k
dsymm_ ssymm_ dtrmm_ strmm_ dsyr2k_ ssyr2k_ dposv_ sposv_
dgetrf_ sgetrf_ dgetrs_ sgetrs_ dgesv_ sgesv_ dgetri_ sgetri_ dlaswp_ slaswp_
zgemm_ cgemm_ cblas_zgemm cblas_cgemm zpotrf_ cpotrf_ zpotrs_ cpotrs_ zposv_ cposv_
ztrsm_ ctrsm_ zherk_ cherk_ cblas_ztrsm cblas_ctrsm cblas_zherk cblas_cherk
openblas_get_num_threads openblas_set_num_threads openblas_set_num_threads_local
teamla_get_num_threads teamla_set_num_threads"
actual=$(nm -D --defined-only "$1" | awk '{print $3}' | sort | tr '\n' ' ' | sed 's/ $//')
want=$(echo $expected | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
echo "exported: $actual"
if [ "$actual" != "$want" ]; then
  echo "check_exports: expected exactly: $want" >&2
  exit 1
fi
