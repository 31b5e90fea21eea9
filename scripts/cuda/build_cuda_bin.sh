#!/bin/sh
# Builds the CUDA test and benchmark programs from the committed tree (HEAD) into
# .cuda_bin/, the folder scripts/cuda/device_run.sh runs on a machine with an NVIDIA
# GPU (copy it there beside the tree).  Usage: scripts/cuda/build_cuda_bin.sh [COMMIT]
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
commit=${1:-HEAD}
root=$(git rev-parse --show-toplevel)
work=$(mktemp -d /tmp/float_adm_cuda_build.XXXXXX)
trap 'rm -rf "$work"' EXIT
git -C "$root" archive "$commit" | tar -x -C "$work"
cd "$work"
./configure --enable-cuda >/dev/null
jobs=$(nproc)
make -j"$jobs" build/tests/cuda_parity build/tests/cuda_robust build/bench/cuda_bench \
    build/tests/unit_tests build/tests/corpus_test build/bin/float_adm_score \
    build/lib/libfloatadm_cuda.a
out="$root/.cuda_bin"
rm -rf "$out"
mkdir -p "$out"
cp build/tests/cuda_parity build/tests/cuda_robust build/bench/cuda_bench build/tests/unit_tests \
    build/tests/corpus_test build/bin/float_adm_score "$out/"
{
    echo "commit $(git -C "$root" rev-parse "$commit")"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), $(ldd --version | head -1)"
    "$(grep '^NVCC' config.mak | sed 's/.*:= *//')" --version | tail -2 | head -1
} > "$out/BUILD_INFO"
cat "$out/BUILD_INFO"
ls -la "$out"
