// SPDX-License-Identifier: Apache-2.0
// team_all.hpp: the whole public team/ API.
#pragma once

#include "teamla/team/cpu_budget.hpp"
#include "teamla/team/machine.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"
#include "teamla/team/wait_policy.hpp"
