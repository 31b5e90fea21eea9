# Tests: the shared support library, the unit tests, the golden corpus and the install
# test (the CUDA tests, tests/cuda/module.mk, are included with the CUDA backend).
# SPDX-License-Identifier: LGPL-2.1-or-later
include tests/support/module.mk
include tests/unit/module.mk
include tests/corpus/module.mk

# What is made from the option table (scripts/gen-options.py: FloatAdmOptions and its
# ctypes copy in python/floatadm/_lib.py, README.md,
# docs/ffmpeg.md, the filter's texinfo, the man page) must be what it makes now; the
# check must catch a stale block in each (test_option_docs.sh); float_adm_score
# --list-options and, where $(BUILD)/bin/ffmpeg exists (it is brought up to date
# first), its `-h filter=float_adm` must list the table.
.PHONY: check-option-docs
check-option-docs: $(CLI_BIN) $(wildcard $(BUILD)/bin/ffmpeg)
	sh tests/docs/test_option_docs.sh
	/usr/bin/python3 tests/docs/check_option_docs.py --self-test --score $(CLI_BIN) \
	    $(addprefix --ffmpeg ,$(filter %/bin/ffmpeg,$^))

check: check-option-docs

include tests/install/module.mk
include tests/abi/module.mk

# The Python package's tests (python/tests, pytest): the C API's bits through ctypes,
# score_files/score_video against float_adm_score, Dask catalogues and split titles on
# a local cluster of 2 workers, the HTML report in headless Chromium.  Debian's
# packages for them come with make deps' (the Makefile), as everything make check needs.
.PHONY: check-python
check-python: $(DEPS_STAMP) python $(CORE_SHLIB_LINKS) $(CLI_BIN) $(CORPUS_YUV) \
              $(BUILD)/bin/ffmpeg $(BUILD)/bin/ffprobe
	FLOATADM_PYTHONPATH=$(abspath $(BUILD)/python) FLOAT_ADM_CORPUS_DIR=$(abspath $(CORPUS_DIR)) \
	FLOAT_ADM_SCORE=$(abspath $(CLI_BIN)) PYTHONDONTWRITEBYTECODE=1 \
	    /usr/bin/python3 -m pytest python/tests -q

check: check-python
