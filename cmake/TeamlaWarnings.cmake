# SPDX-License-Identifier: Apache-2.0
# Warnings live on a private INTERFACE target so that consumers of teamla never inherit them.
add_library(teamla_warnings INTERFACE)
target_compile_options(teamla_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused -Woverloaded-virtual
  -Wnull-dereference -Wdouble-promotion -Wimplicit-fallthrough
  $<$<BOOL:${TEAMLA_WERROR}>:-Werror>)
