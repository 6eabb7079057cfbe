// SPDX-License-Identifier: Apache-2.0
// cgroup.hpp: the cgroup CPU quota reader, exposed for tests that lay out a fake cgroup tree.
#pragma once

#include <string_view>

namespace teamla::team::platform {

// cgroup_cpu_limit(): the CPUs granted by the tightest cpu quota on the cgroup paths listed in
// `proc_self_cgroup` (the text of /proc/self/cgroup) and their parents, with cgroup file
// systems under `fs_root` (v2 at fs_root or fs_root/unified, v1 at fs_root/<controllers>).
// 0 when no quota applies.
unsigned cgroup_cpu_limit(std::string_view proc_self_cgroup, std::string_view fs_root);

}  // namespace teamla::team::platform
