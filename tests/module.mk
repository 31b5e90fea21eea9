# Tests: the shared support library, the unit tests, the golden corpus and the install
# test (the CUDA tests, tests/cuda/module.mk, are included with the CUDA backend).
# SPDX-License-Identifier: LGPL-2.1-or-later
include tests/support/module.mk
include tests/unit/module.mk
include tests/corpus/module.mk

# The option table against its documentation: README.md, docs/ffmpeg.md, the filter's
# texinfo in scripts/ffmpeg-gen-patches.py and, where $(BUILD)/bin/ffmpeg exists (it is
# brought up to date first), its `-h filter=float_adm`.
.PHONY: check-option-docs
check-option-docs: $(CLI_BIN) $(wildcard $(BUILD)/bin/ffmpeg)
	/usr/bin/python3 tests/docs/check_option_docs.py --self-test --score $(CLI_BIN) \
	    $(addprefix --ffmpeg ,$(filter %/bin/ffmpeg,$^))

check: check-option-docs

include tests/install/module.mk
