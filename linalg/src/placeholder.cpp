// Replaced by the GEMM sources.
