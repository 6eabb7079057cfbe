// width_internal.hpp (internal): test hook for the observed section penalty (width.hpp).
#pragma once

namespace teamla::linalg::detail {

// set_section_observation() turns the observed penalty on (default) or off. Off: the penalty
// is cleared and record_section() ignores its input, so width choices are the table's alone
// (deterministic tests on a loaded machine). Not for concurrent use with running kernels.
void set_section_observation(bool enabled);

}  // namespace teamla::linalg::detail
