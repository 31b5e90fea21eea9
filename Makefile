# float_adm top-level Makefile.  SPDX-License-Identifier: LGPL-2.1-or-later
# Everything lands under $(BUILD)/.  A fresh checkout first gets the packages the build
# needs (the deps target) and config.mak (./configure with defaults): both are rules,
# so `make -n`, `make clean` and `make help` install nothing.

BUILD ?= build
.DEFAULT_GOAL := all

# scripts/ensure-packages.sh has run: as root it apt-get installs what is missing.
DEPS_STAMP := $(BUILD)/.deps-installed
# Goals that need neither the packages nor config.mak.
CONFIG_FREE_GOALS := clean help deps option-docs
# Under make -n the package step is printed, not run.  GNU make still remakes the
# included config.mak for real, but ./configure only writes that file.
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))

ifneq ($(filter-out $(CONFIG_FREE_GOALS),$(or $(MAKECMDGOALS),all)),)
include config.mak
endif

# Made only when missing; the packages come first, configure looks for the compilers.
config.mak: | $(if $(DRY_RUN),,$(DEPS_STAMP))
	./configure

$(DEPS_STAMP): scripts/ensure-packages.sh
	sh scripts/ensure-packages.sh
	@mkdir -p $(dir $@) && touch $@

# Scores must not depend on compiler flags: no FMA contraction, ever.
SCORE_FLAGS := -ffp-contract=off
WARN_FLAGS  := -Wall -Wextra
ifeq ($(SANITIZE),1)
SAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
# --disable-rcpss (RCPSS=no): divide as libvmaf does without SSE2 (aarch64, ...).
ifeq ($(RCPSS),no)
RCPSS_FLAGS := -DFLOAT_ADM_NO_RCPSS
endif
CXXFLAGS_ALL := -std=c++17 $(WARN_FLAGS) $(OPT_FLAGS) $(SCORE_FLAGS) -fPIC -pthread \
                $(SAN_FLAGS) $(RCPSS_FLAGS) $(EXTRA_CXXFLAGS)
CFLAGS_ALL   := -std=c11 $(WARN_FLAGS) $(OPT_FLAGS) $(SCORE_FLAGS) $(SAN_FLAGS) $(EXTRA_CFLAGS)
LDFLAGS_ALL  := -pthread $(SAN_FLAGS) $(EXTRA_LDFLAGS)
# What a program linking the static C++ core needs besides it.
CORE_PRIVATE_LIBS := -lstdc++ -lm -lpthread

.PHONY: all deps check check-unit check-corpus check-sanitize check-no-rcpss demo install clean \
        bench help option-docs
all: $(DEPS_STAMP)

include src/adm_core/module.mk
include src/common/module.mk
include src/cli/module.mk
include tests/module.mk
include mk/aarch64.mk
include bench/module.mk
-include mk/ffmpeg.mk
-include mk/hardening.mk
-include fuzz/module.mk
-include tests/robustness/module.mk
ifeq ($(HAVE_CUDA),yes)
-include src/adm_cuda/module.mk
include tests/cuda/module.mk
include bench/cuda/module.mk
endif

check: $(DEPS_STAMP) check-unit check-corpus
demo: $(DEPS_STAMP)

deps: $(DEPS_STAMP)

# What is made from the option table (FLOAT_ADM_OPTIONS in include/float_adm.h), written
# between its markers: FloatAdmOptions and its ctypes copy, the options tables of README.md and
# docs/ffmpeg.md, the filter's texinfo, the man page.  check-option-docs fails on a stale one.
option-docs:
	/usr/bin/python3 scripts/gen-options.py

# The unit and corpus tests again, built with ASan + UBSan in their own tree.
check-sanitize:
	$(MAKE) BUILD=$(BUILD)/sanitize SANITIZE=1 check-unit check-corpus

# The plain-division path of processors without RCPSS, built and tested here too
# (its corpus bit for bit: upstream's values without RCPSS, tests/corpus/hosts/none.json).
check-no-rcpss:
	$(MAKE) BUILD=$(BUILD)/no-rcpss RCPSS=no check-unit check-corpus check-cli

# install, uninstall, deb.
include mk/install.mk
# The Python package: staged into $(BUILD)/python, installed with install.
include python/module.mk

clean:
	rm -rf $(BUILD)

help:
	@echo 'make                   everything into $(BUILD)/ (packages and ./configure first when missing)'
	@echo 'make demo              the float_adm filter on a sample pair through the embedded ffmpeg'
	@echo 'make check             all tests: unit, corpus, CLI, FATE, robustness (CUDA where configured)'
	@echo 'make check-unit        the unit tests'
	@echo 'make check-corpus      the golden corpus at every SIMD level'
	@echo 'make check-cli         the float_adm_score tests'
	@echo 'make check-fate        FATE tests of the filter: the series and the corpus'
	@echo 'make check-python      the floatadm Python package: ctypes, Dask, the HTML report'
	@echo 'make check-option-docs what is made from the option table, against the table'
	@echo 'make check-sanitize    unit and corpus tests under ASan + UBSan'
	@echo 'make check-no-rcpss    unit, corpus and CLI tests with the --disable-rcpss division'
	@echo 'make check-aarch64     unit, corpus and CLI tests cross-built for aarch64, run under qemu'
	@echo 'make check-ffmpeg-all  FATE and FFmpeg checks of the series on FFmpeg 7.1, 8.1 and 9.0'
	@echo 'make check-fate-other-host  the FATE tests of the series, by an ffmpeg that scores as another CPU does'
	@echo 'make option-docs       rewrite what is made from the option table (docs, FloatAdmOptions)'
	@echo 'make patches           regenerate the FFmpeg series under patches/'
	@echo 'make fuzz              the libFuzzer targets, FUZZ_SECONDS each'
	@echo 'make bench             Google Benchmark (BENCH_ARGS=...)'
	@echo 'make deps              the packages the build needs (apt-get as root, else the command to run)'
	@echo 'make install           libraries, headers, .pc files, float_adm_score, ffmpeg (PREFIX=, DESTDIR=)'
	@echo 'make uninstall         removes what make install put there (same PREFIX=, DESTDIR=)'
	@echo 'make deb               a Debian package of the same: $(BUILD)/floatadm_VERSION_ARCH.deb'
	@echo 'make clean; ./configure --help lists the build switches.'
	@echo 'CONTRIBUTING.md: the layout, every test tier, the exactness rules.'
