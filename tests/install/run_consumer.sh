#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run_consumer.sh <teamla build dir> <consumer source> <scratch dir>
# Installs teamla into a scratch prefix, then builds and runs, from that prefix alone:
#  - a CMake consumer of find_package(teamla): teamla::engine, and teamla::blas from the
#    same export set;
#  - a program compiled with `pkg-config --cflags --libs teamla`, and one linked with
#    `pkg-config --libs teamla-blas`;
#  - a CMake consumer that finds teamla's BLAS through FindBLAS (BLA_PREFER_PKGCONFIG=ON,
#    BLA_PKGCONFIG_BLAS=teamla-blas).
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log"
"$work/build/consumer"
"$work/build/blas_consumer"

# pkg-config, from the installed .pc files alone (relocated: the install prefix differs from
# the configured one).
pc=$(find "$work/prefix" -name teamla.pc -printf '%h\n' | head -n 1)
export PKG_CONFIG_PATH=$pc
version=$(pkg-config --modversion teamla)
echo "pkg-config: teamla $version, teamla-blas $(pkg-config --modversion teamla-blas)"
mkdir -p "$work/pc"
# shellcheck disable=SC2046 # the flags are words
"${CXX:-c++}" -std=c++20 -O1 "$src/main.cpp" -o "$work/pc/consumer" \
  $(pkg-config --cflags --libs teamla)
"$work/pc/consumer"
# shellcheck disable=SC2046
"${CC:-cc}" -O1 "$src/blas_main.c" -o "$work/pc/blas_consumer" $(pkg-config --libs teamla-blas)
LD_LIBRARY_PATH=$(pkg-config --variable=libdir teamla-blas) "$work/pc/blas_consumer"

cmake -S "$src/../findblas_consumer" -B "$work/findblas" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/findblas_configure.log"
grep "FindBLAS found: .*libteamla_blas" "$work/findblas_configure.log"
cmake --build "$work/findblas" > "$work/findblas_build.log"
"$work/findblas/findblas_consumer"
