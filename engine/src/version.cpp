namespace teamla::engine {
int library_version_major() { return 0; }
}  // namespace teamla::engine
