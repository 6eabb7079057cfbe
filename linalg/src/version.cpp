// version.cpp: keeps the library non-empty while the kernels grow; see blas3.hpp.
namespace teamla::linalg {
int library_version_major() { return 0; }
}  // namespace teamla::linalg
