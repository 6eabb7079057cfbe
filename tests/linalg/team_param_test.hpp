// SPDX-License-Identifier: Apache-2.0
// team_param_test.hpp: TeamParamTest, the fixture of the tests that run a routine on a team as
// wide as the test's parameter.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>

#include "isa_dispatch.hpp"
#include "plan/width_internal.hpp"
#include "teamla/team/pool.hpp"
#include "teamla/team/team.hpp"

namespace teamla::test {

// TeamParamTest: a pool and a team of GetParam() threads. Widths come from the cost model alone
// (section observation off), so a loaded test machine cannot send a region inline; any forced
// blocking is cleared at the end.
class TeamParamTest : public ::testing::TestWithParam<std::size_t> {
 protected:
  void SetUp() override {
    linalg::detail::set_section_observation(false);
    pool_ = team::Pool::builder().threads(GetParam()).build();
    team_ = std::make_unique<team::Team>(pool_->acquire(GetParam()));
  }
  void TearDown() override {
    team_.reset();
    pool_.reset();
    linalg::detail::clear_blocking_override();
    linalg::detail::set_section_observation(true);
  }
  std::unique_ptr<team::Pool> pool_;
  std::unique_ptr<team::Team> team_;
};

}  // namespace teamla::test
