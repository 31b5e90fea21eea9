#!/bin/sh
# The Python package's maps on the CUDA backend against the CPU's, on a machine with an
# NVIDIA GPU (scripts/cuda/check_python_maps.py): Scorer.score(map=True) and
# score_files(map=True), every block's loss and sums and every score, 0 bits apart.
# Needs $PYTHON (python3) with numpy; the package is python/ of this tree, the libraries
# $BUILD/lib/shared (a build, or one copied by bundle_build.sh).
#
# Usage, from the top of the source tree:
#   [BUILD=build] [RESULTS=...] [PYTHON=python3] sh scripts/cuda/check_python_maps.sh
# Logs go to $RESULTS (scripts/cuda/lib.sh).
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/lib.sh"
lib=$(cd "$BUILD/lib/shared" 2>/dev/null && pwd) ||
    { echo "$BUILD/lib/shared is missing: run make (or set BUILD)" >&2; exit 2; }
for so in libfloatadm.so.1 libfloatadm_cuda.so.1; do
    [ -e "$lib/$so" ] || { echo "$lib/$so is missing: run make (or set BUILD)" >&2; exit 2; }
done

environment

step "Python maps: CPU vs CUDA (Scorer, score_files)" python_maps.log 600 \
    env PYTHONPATH="$(pwd)/python" FLOATADM_LIBRARY="$lib/libfloatadm.so.1" \
    FLOATADM_CUDA_LIBRARY="$lib/libfloatadm_cuda.so.1" PYTHONDONTWRITEBYTECODE=1 \
    "${PYTHON:-python3}" scripts/cuda/check_python_maps.py tests/corpus
note "$(grep -h '^SUMMARY' "$RESULTS/python_maps.log" 2>/dev/null || echo 'no SUMMARY')"

finish
