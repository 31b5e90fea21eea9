#!/bin/sh
# Copies what the GPU checks of scripts/cuda/ run from a build tree into DEST, for a
# machine with an NVIDIA GPU but no compiler: the CUDA backend needs only the NVIDIA
# driver there.  Run the checks there, from the top of the source tree, with BUILD=DEST.
# BUILD/nvcc, where it was built (make BUILD=build/nvcc CUDA_KERNELS=nvcc ...), comes
# along for the benchmark's comparison.
# Usage: [BUILD=build] sh scripts/cuda/bundle_build.sh DEST
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
BUILD=${BUILD:-build}
dest=${1:?usage: sh scripts/cuda/bundle_build.sh DEST}
copy() { # copy TREE DEST
    mkdir -p "$2/tests" "$2/bench" "$2/lib/shared"
    for p in tests/cuda_parity tests/cuda_robust tests/cuda_no_driver tests/cuda_map \
        bench/cuda_bench; do
        if [ -x "$1/$p" ]; then cp "$1/$p" "$2/$p"; fi
    done
    cp "$1"/lib/libfloatadm_cuda.a "$2/lib/"
    cp -P "$1"/lib/shared/libfloatadm_cuda.so* "$2/lib/shared/"
}
rm -rf "$dest"
copy "$BUILD" "$dest"
# The Python package's check (check_python_maps.sh) loads the core library too.
cp -P "$BUILD"/lib/shared/libfloatadm.so* "$dest/lib/shared/"
if [ -x "$BUILD/nvcc/bench/cuda_bench" ]; then copy "$BUILD/nvcc" "$dest/nvcc"; fi
{
    echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), $(ldd --version | head -1)"
    grep -E '^(CUDA_KERNELS|CUDA_CLANG) ' config.mak 2>/dev/null
    clang=$(sed -n 's/^CUDA_CLANG := //p' config.mak 2>/dev/null)
    [ -n "$clang" ] && "$clang" --version | head -1
} > "$dest/BUILD_INFO"
cat "$dest/BUILD_INFO"
du -sh "$dest"
