#!/bin/sh
# Builds what scripts/cuda/check_host_paths.sh runs on a machine with an NVIDIA GPU (and
# no compiler, FFmpeg or network) into DEST (default .gpu, ignored by git):
#   DEST/new    this tree (its working copy, as it is): float_adm_score, libfloatadm.so.1,
#               libfloatadm_cuda.so.1, the Python package, tests/cuda_host and
#               cuda_parity, bench/cuda_host_bench and cuda_bench
#   DEST/base   the baseline commit (BASELINE, default c700f7f, from git archive): the same
#               programs that it has, and its Python package
# both configured --enable-cuda=auto (clang PTX kernels) --disable-swscale (the GPU
# machine has no FFmpeg libraries), stripped.  The baseline is built once in BASE_SRC
# (default /tmp/float_adm_base.BASELINE) and kept there for the next bundle.
# Run from the top of the tree, after ./configure --enable-cuda=auto.
# Usage: [BASELINE=c700f7f] [JOBS=2] [BASE_SRC=DIR] sh scripts/cuda/bundle_host_paths.sh [DEST]
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
dest=${1:-.gpu}
BASELINE=${BASELINE:-c700f7f}
JOBS=${JOBS:-2}
BASE_SRC=${BASE_SRC:-/tmp/float_adm_base.$BASELINE}
root=$(pwd)
[ -f config.mak ] && grep -q '^HAVE_CUDA := yes' config.mak || {
    echo "configure this tree with the CUDA backend first: ./configure --enable-cuda=auto" >&2
    exit 2
}

# What each build gives the GPU machine (those a build lacks are left out).
programs="bin/float_adm_score tests/cuda_host tests/cuda_parity bench/cuda_host_bench
    bench/cuda_bench"
libraries="lib/shared/libfloatadm.so.1 lib/shared/libfloatadm_cuda.so.1"

# bundle TREE BUILD_DIR OUT: the programs, libraries and Python package of one build.
bundle() {
    rm -rf "$3"
    mkdir -p "$3/bin" "$3/tests" "$3/bench" "$3/lib/shared" "$3/python/floatadm"
    for p in $programs $libraries; do
        if [ -e "$2/$p" ]; then
            cp -L "$2/$p" "$3/$p"
            strip --strip-unneeded "$3/$p"
        fi
    done
    cp "$1"/python/floatadm/*.py "$3/python/floatadm/"
    {
        echo "$(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo "$BASELINE")"
        echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), $(ldd --version | head -1)"
        grep -E '^(CUDA_KERNELS|CUDA_CLANG) ' "$1/config.mak"
    } > "$3/BUILD_INFO"
}

rm -rf "$dest"

# This tree, in a build directory of its own without libswscale.
targets=
for p in $programs $libraries; do targets="$targets build/gpu/$p"; done
# shellcheck disable=SC2086
make -j"$JOBS" BUILD=build/gpu HAVE_SWSCALE=no $targets
bundle "$root" build/gpu "$dest/new"
if ! git diff --quiet HEAD 2>/dev/null; then
    echo "(with local changes)" >> "$dest/new/BUILD_INFO"
fi

# The baseline, from git archive, built once.
if [ ! -x "$BASE_SRC/build/bin/float_adm_score" ]; then
    rm -rf "$BASE_SRC"
    mkdir -p "$BASE_SRC"
    git archive "$BASELINE" | tar -x -C "$BASE_SRC"
    (
        cd "$BASE_SRC"
        ./configure --enable-cuda=auto --disable-swscale
        base_targets=
        for p in $programs $libraries; do
            case $p in *cuda_host*) ;; *) base_targets="$base_targets build/$p" ;; esac
        done
        # shellcheck disable=SC2086
        make -j"$JOBS" $base_targets
    )
fi
bundle "$BASE_SRC" "$BASE_SRC/build" "$dest/base"

for b in new base; do
    echo "$dest/$b: $(tr '\n' ' ' < "$dest/$b/BUILD_INFO")"
done
du -sh "$dest"
