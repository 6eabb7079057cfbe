#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""baseline_test.py SCRIPTS_DIR [OPENBLAS]: the fair-baseline environment's OpenBLAS rule
(scripts/teamla_bench/baseline.py): OPENBLAS_CORETYPE stays removed, unless OpenBLAS picks
non-AVX-512 kernels on an AVX-512 CPU, where it names the AVX-512 ones; a given name is used as
given. With OPENBLAS, the library itself is asked for its kernels' name."""
import sys

sys.path.insert(0, sys.argv[1])
from teamla_bench import baseline  # noqa: E402


def expect(what, got, want):
    if got != want:
        sys.exit("baseline_test: %s: got %r, want %r" % (what, got, want))


def coretype_with(corename, avx512, wanted="auto"):
    baseline.openblas_corename = lambda library: corename
    baseline.cpu_has_avx512 = lambda: avx512
    return baseline.openblas_coretype("libopenblas.so.0", wanted)


def main():
    real_corename, real_avx512 = baseline.openblas_corename, baseline.cpu_has_avx512
    fallback = baseline.OPENBLAS_AVX512_FALLBACK
    expect("generic kernels on an AVX-512 CPU", coretype_with("Prescott", True), fallback)
    expect("AVX2 kernels on an AVX-512 CPU", coretype_with("Haswell", True), fallback)
    expect("AVX-512 kernels picked", coretype_with("SkylakeX", True), "")
    expect("no AVX-512", coretype_with("Haswell", False), "")
    expect("OpenBLAS not asked", coretype_with("", True), "")
    expect("a name given", coretype_with("Prescott", True, "Haswell"), "Haswell")
    fair = baseline.Baseline()
    fair.use_openblas("libopenblas.so.0", "Haswell")
    expect("the environment", fair.env(base={"OPENBLAS_CORETYPE": "Zen"})["OPENBLAS_CORETYPE"],
           "Haswell")
    expect("the record", fair.record().get("OPENBLAS_CORETYPE"), "Haswell")
    fair.use_openblas("libopenblas.so.0", "")
    expect("removed", "OPENBLAS_CORETYPE" in fair.env(base={"OPENBLAS_CORETYPE": "Zen"}), False)
    baseline.openblas_corename, baseline.cpu_has_avx512 = real_corename, real_avx512
    if len(sys.argv) > 2:
        name = baseline.openblas_corename(sys.argv[2])
        if not name:
            sys.exit("baseline_test: %s did not name its kernels" % sys.argv[2])
        print("baseline_test: %s picks %s" % (sys.argv[2], name))
    print("baseline_test: passed")


if __name__ == "__main__":
    main()
