# Tests: the shared support library, the unit tests and the golden corpus (the CUDA
# tests, tests/cuda/module.mk, are included with the CUDA backend).
# SPDX-License-Identifier: LGPL-2.1-or-later
include tests/support/module.mk
include tests/unit/module.mk
include tests/corpus/module.mk
