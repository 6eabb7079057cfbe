#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check_exports.sh LIBRARY: LIBRARY's dynamic symbol table defines exactly the documented
# BLAS/LAPACK/CBLAS routines and thread-control calls (docs/blas.md) and nothing else: no
# teamla internals, no C++ runtime symbols.
set -u
expected="cblas_dgemm cblas_dgemm_batch cblas_dgemm_batch_strided cblas_sgemm_batch
cblas_sgemm_batch_strided cblas_zgemm_batch cblas_cgemm_batch cblas_zgemm_batch_strided
cblas_cgemm_batch_strided cblas_dsyrk cblas_dtrsm cblas_sgemm cblas_ssyrk cblas_strsm dgemm_
dpotrf_ dpotrs_ dsyrk_ dtrsm_ sgemm_ spotrf_ spotrs_ ssyrk_ strsm_
cblas_dsymm cblas_ssymm cblas_dtrmm cblas_strmm cblas_dsyr2k cblas_ssyr2k
dsymm_ ssymm_ dtrmm_ strmm_ dsyr2k_ ssyr2k_ dposv_ sposv_
dgetrf_ sgetrf_ dgetrs_ sgetrs_ dgesv_ sgesv_ dgetri_ sgetri_ dlaswp_ slaswp_
zgemm_ cgemm_ cblas_zgemm cblas_cgemm zpotrf_ cpotrf_ zpotrs_ cpotrs_ zposv_ cposv_
ztrsm_ ctrsm_ zherk_ cherk_ cblas_ztrsm cblas_ctrsm cblas_zherk cblas_cherk
ztrmm_ ctrmm_ cblas_ztrmm cblas_ctrmm
zgetrf_ cgetrf_ zgetrs_ cgetrs_ zgesv_ cgesv_ zgetri_ cgetri_ zlaswp_ claswp_
zsymm_ csymm_ zhemm_ chemm_ zsyrk_ csyrk_ zsyr2k_ csyr2k_ zher2k_ cher2k_
cblas_zsymm cblas_csymm cblas_zhemm cblas_chemm cblas_zsyrk cblas_csyrk cblas_zsyr2k cblas_csyr2k
cblas_zher2k cblas_cher2k
openblas_get_num_threads openblas_set_num_threads openblas_set_num_threads_local
teamla_get_num_threads teamla_set_num_threads
sgemv_ dgemv_ cgemv_ zgemv_ ssymv_ sger_ ssyr_ ssyr2_ dsymv_ dger_ dsyr_ dsyr2_ chemv_ cgeru_
cgerc_ cher_ cher2_ zhemv_ zgeru_ zgerc_ zher_ zher2_ strmv_ strsv_ dtrmv_ dtrsv_ ctrmv_
ctrsv_ ztrmv_ ztrsv_ sdot_ ddot_ cdotu_ zdotu_ cdotc_ zdotc_ snrm2_ dnrm2_ scnrm2_ dznrm2_
sasum_ dasum_ scasum_ dzasum_ saxpy_ sscal_ sswap_ scopy_ daxpy_ dscal_ dswap_ dcopy_ caxpy_
cscal_ cswap_ ccopy_ zaxpy_ zscal_ zswap_ zcopy_ csscal_ zdscal_ isamax_ idamax_ icamax_
izamax_ srot_ drot_ csrot_ zdrot_ cblas_sgemv cblas_dgemv cblas_cgemv cblas_zgemv cblas_ssymv
cblas_sger cblas_ssyr cblas_ssyr2 cblas_dsymv cblas_dger cblas_dsyr cblas_dsyr2 cblas_chemv
cblas_cgeru cblas_cgerc cblas_cher cblas_cher2 cblas_zhemv cblas_zgeru cblas_zgerc cblas_zher
cblas_zher2 cblas_strmv cblas_strsv cblas_dtrmv cblas_dtrsv cblas_ctrmv cblas_ctrsv
cblas_ztrmv cblas_ztrsv cblas_sdot cblas_ddot cblas_cdotu_sub cblas_zdotu_sub cblas_cdotc_sub
cblas_zdotc_sub cblas_snrm2 cblas_dnrm2 cblas_scnrm2 cblas_dznrm2 cblas_sasum cblas_dasum
cblas_scasum cblas_dzasum cblas_saxpy cblas_sscal cblas_sswap cblas_scopy cblas_daxpy
cblas_dscal cblas_dswap cblas_dcopy cblas_caxpy cblas_cscal cblas_cswap cblas_ccopy
cblas_zaxpy cblas_zscal cblas_zswap cblas_zcopy cblas_csscal cblas_zdscal cblas_isamax
cblas_idamax cblas_icamax cblas_izamax cblas_srot cblas_drot cblas_csrot cblas_zdrot"
actual=$(nm -D --defined-only "$1" | awk '{print $3}' | sort | tr '\n' ' ' | sed 's/ $//')
want=$(echo $expected | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
echo "exported: $actual"
if [ "$actual" != "$want" ]; then
  echo "check_exports: expected exactly: $want" >&2
  exit 1
fi
