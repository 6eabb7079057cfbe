# SPDX-License-Identifier: Apache-2.0
# tests/house: the rules of the source tree that a script checks (scripts/check-house): no
# figures or history in source comments, no wait policy in linalg, short functions, no include
# cycles between rooms, kernels/ including nothing above it, no measured ratios in comments,
# the environment read in at most three files, short design pages; house_rules_self_test runs
# the comment and include matchers on samples that must and must not fire.
add_test(NAME house_rules COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-house --root ${PROJECT_SOURCE_DIR})
add_test(NAME house_rules_self_test COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-house --self-test)
set_tests_properties(house_rules house_rules_self_test PROPERTIES LABELS unit)
