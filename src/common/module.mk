# Code the programs share: the library's thread pool (libfloatadm.a holds it), for the
# benchmarks and CUDA tests that run several contexts on one pool.
# SPDX-License-Identifier: LGPL-2.1-or-later
COMMON_OBJS :=
# What a user of src/common compiles with.
COMMON_CXXFLAGS := -Isrc/common -Isrc/adm_core
