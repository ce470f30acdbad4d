#!/usr/bin/env bash
# Installs everything profkit needs to build and test on a fresh Debian machine.
# Idempotent: packages already present are left alone, so a second run is quick.
set -euo pipefail

packages=(
  # Toolchain and build.
  cmake ninja-build g++ python3 pkg-config
  # LLVM 19 (ours; the preinstalled LLVM 14 is not used).
  llvm-19 llvm-19-dev llvm-19-tools clang-19 libclang-rt-19-dev libfuzzer-19-dev
  # Libraries.
  zlib1g-dev libisal-dev libzstd-dev libiberty-dev libgtest-dev libbenchmark-dev
  libsimdjson-dev libgraphviz-dev
  # Real tools the lit tests run and compare against.
  valgrind binutils gzip time gawk mawk php-cli php-xdebug graphviz
  # The man pages (docs/CommandGuide, Sphinx's man builder) and the test
  # that reads them installed (man-db).
  python3-sphinx man-db
)

# PROFKIT_VIEWERS=1: also the viewers the optional tests check profkit's
# output with (test/viewers: KCachegrind, read headlessly through its
# accessibility tree; about 500 MB installed).
if [ "${PROFKIT_VIEWERS:-0}" = 1 ]; then
  packages+=(kcachegrind xvfb dbus at-spi2-core python3-pyatspi)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done

if [ ${#missing[@]} -ne 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
