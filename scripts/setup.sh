#!/usr/bin/env bash
#! Installs what termcheck needs to build and run on a fresh Debian machine:
#! LLVM 22 + clang-22 (Debian packages) and Z3 >= 4.13.3 (the pinned PyPI wheel,
#! unpacked into .toolchain/z3 inside the repository). Idempotent: does nothing
#! when everything is already present.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
z3_version="4.15.4.0"
z3_dir="$root/.toolchain/z3"

need_apt=()
[ -x /usr/lib/llvm-22/bin/llvm-config ] || need_apt+=(llvm-22-dev)
[ -x /usr/bin/clang-22 ] || need_apt+=(clang-22)
[ -x /usr/bin/opt-22 ] || need_apt+=(llvm-22)   # opt-22 checks untrusted bitcode in a child process
# inkwell's llvm-sys links libpolly/zstd/etc. through llvm-config --system-libs.
dpkg -s libpolly-22-dev >/dev/null 2>&1 || need_apt+=(libpolly-22-dev)
dpkg -s libzstd-dev >/dev/null 2>&1 || need_apt+=(libzstd-dev)
dpkg -s zlib1g-dev >/dev/null 2>&1 || need_apt+=(zlib1g-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}" >&2
  if [ "$(id -u)" != 0 ]; then
    echo "setup: not root; run as root: apt-get update && apt-get install -y ${need_apt[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || { echo "setup: apt-get update failed" >&2; exit 1; }
  apt-get install -y -qq "${need_apt[@]}" >/dev/null || {
    echo "setup: apt-get install ${need_apt[*]} failed; install LLVM 22 and clang-22 by hand" >&2; exit 1; }
fi

if [ ! -f "$z3_dir/lib/libz3.so" ] || [ ! -f "$z3_dir/include/z3.h" ]; then
  echo "setup: fetching z3-solver==$z3_version wheel from PyPI" >&2
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download --quiet --no-deps --only-binary=:all: \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux_2_34_x86_64 \
    -d "$tmp" "z3-solver==$z3_version" || {
    echo "setup: could not download z3-solver==$z3_version from PyPI; install Z3 >= 4.13.3 and set Z3_LIBRARY_PATH_OVERRIDE" >&2; exit 1; }
  whl="$(ls "$tmp"/z3_solver-*.whl | head -n1)"
  python3 - "$whl" "$tmp/unpacked" <<'PY'
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])
PY
  rm -rf "$z3_dir"; mkdir -p "$z3_dir/lib" "$z3_dir/include"
  cp "$tmp"/unpacked/z3/lib/libz3.so* "$z3_dir/lib/"
  cp "$tmp"/unpacked/z3/include/*.h "$z3_dir/include/"
  ( cd "$z3_dir/lib" && [ -f libz3.so ] || ln -sf "$(ls libz3.so* | head -n1)" libz3.so )
fi
echo "setup: toolchain ready (LLVM 22 at /usr/lib/llvm-22, Z3 at $z3_dir)" >&2
