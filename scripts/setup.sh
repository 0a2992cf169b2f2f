#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs rubick's Debian dependencies (only the missing ones) and builds it into build/.
# Idempotent; safe to rerun. Needs root (or sudo) only when something must be installed.
#   RUBICK_BUILD_DIR   build directory (default: build)
#   RUBICK_CMAKE_ARGS  extra arguments for the CMake configure step
#   RUBICK_TARGETS     build only these targets (space-separated; default: all)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config git
  libisl-dev libgmp-dev libeigen3-dev libcli11-dev libgtest-dev nlohmann-json3-dev
  verilator yosys iverilog nextpnr-ice40 python3 python3-yaml parallel
  clang libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# clang when the caller names no compiler: it builds the tree in about two thirds of gcc's time
# (docs/development.md). A build directory configured before keeps its compiler.
if [ -z "${CC:-}" ] && [ -z "${CXX:-}" ] && command -v clang++ >/dev/null; then
  export CC=clang CXX=clang++
fi

build=${RUBICK_BUILD_DIR:-build}
# shellcheck disable=SC2086
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${RUBICK_CMAKE_ARGS:-} >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j "$(nproc)" ${RUBICK_TARGETS:+--target $RUBICK_TARGETS}
