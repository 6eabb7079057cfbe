# SPDX-License-Identifier: Apache-2.0
# tests/house: the rules of the source tree that a script checks (scripts/check-house): no
# figures or history in source comments, no wait policy in linalg, short functions, no include
# cycles between rooms, the environment read in at most three files, short design pages.
add_test(NAME house_rules COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-house --root ${PROJECT_SOURCE_DIR})
set_tests_properties(house_rules PROPERTIES LABELS unit)
