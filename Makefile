# float_adm top-level Makefile.  SPDX-License-Identifier: LGPL-2.1-or-later
# Everything lands under $(BUILD)/.  Two builds:
#   the plain build   `make` (all), `make install`, `make check-lib`: the library (static
#                     and shared), headers, .pc files, float_adm_score and its man page,
#                     from the tree alone; it installs no package and fetches nothing
#   the workbench     `make demo`, `make check`: the plain build plus the embedded ffmpeg
#                     (FFmpeg's release fetched with apt-get source) and the Python
#                     package, after `make deps`, the one step that installs packages
# A missing config.mak is made by ./configure with defaults (for the workbench's goals
# --enable-cuda=auto, after the packages): a rule, so `make -n`, `make clean` and
# `make help` install nothing.

BUILD ?= build
.DEFAULT_GOAL := all

# scripts/ensure-packages.sh has run: as root it apt-get installs what is missing.
DEPS_STAMP := $(BUILD)/.deps-installed
# Goals that need neither the packages nor config.mak.
CONFIG_FREE_GOALS := clean help deps option-docs check-build
# Goals of the workbench: the packages come first, before anything else is made.
WORKBENCH_GOALS := deps workbench demo check
WORKBENCH := $(filter $(WORKBENCH_GOALS),$(MAKECMDGOALS))
# Under make -n the package step is printed, not run.  GNU make still remakes the
# included config.mak for real, but ./configure only writes that file.
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))

ifneq ($(filter-out $(CONFIG_FREE_GOALS),$(or $(MAKECMDGOALS),all)),)
include config.mak
endif

# GNU make checks an included file's prerequisites before it makes any goal, and builds a
# missing order-only one: so for a workbench goal the packages are installed first, once,
# whether or not config.mak exists (configure looks for clang, and check-install imports
# numpy long before check-python runs).
config.mak: | $(if $(WORKBENCH),$(if $(DRY_RUN),,$(DEPS_STAMP)))
	./configure $(if $(WORKBENCH),--enable-cuda=auto)

# Everything make demo and make check need (the list is the script's), in one step.
$(DEPS_STAMP): scripts/ensure-packages.sh
	sh scripts/ensure-packages.sh $(if $(filter yes,$(GPL)),libx264-dev libx265-dev)
	@mkdir -p $(dir $@) && touch $@

# The caller's flags (configure records CC, CXX, CFLAGS, CXXFLAGS, CPPFLAGS and LDFLAGS;
# make's environment and command line override them) come first, the project's own last,
# so that they win on every line:
#   SCORE_FLAGS    scores must not depend on compiler flags: no FMA contraction, no
#                  fast-math (-fno-fast-math first: clang's resets -ffp-contract)
#   REPRO_FLAGS    no build directory in the objects: two builds of the same tree in two
#                  places give the same bytes (check-build compares them)
CFLAGS   ?= -O2 -g
CXXFLAGS ?= -O2 -g
SCORE_FLAGS := -fno-fast-math -ffp-contract=off
REPRO_FLAGS := -ffile-prefix-map=$(CURDIR)=.
WARN_FLAGS  := -Wall -Wextra
ifeq ($(SANITIZE),1)
SAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
# --disable-rcpss (RCPSS=no): divide as libvmaf does without SSE2 (aarch64, ...).
ifeq ($(RCPSS),no)
RCPSS_FLAGS := -DFLOAT_ADM_NO_RCPSS
endif
CXXFLAGS_ALL := -std=c++17 $(WARN_FLAGS) $(CPPFLAGS) $(CXXFLAGS) $(EXTRA_CXXFLAGS) \
                $(SAN_FLAGS) $(RCPSS_FLAGS) $(SCORE_FLAGS) $(REPRO_FLAGS) -fPIC -pthread
CFLAGS_ALL   := -std=c11 $(WARN_FLAGS) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) \
                $(SAN_FLAGS) $(SCORE_FLAGS) $(REPRO_FLAGS)
LDFLAGS_ALL  := $(LDFLAGS) $(EXTRA_LDFLAGS) -pthread $(SAN_FLAGS)
# What a program linking the static C++ core needs besides it.
CORE_PRIVATE_LIBS := -lstdc++ -lm -lpthread

.PHONY: all deps workbench check check-lib check-unit check-corpus check-sanitize \
        check-no-rcpss demo install clean bench help option-docs
all:

include src/adm_core/module.mk
include src/common/module.mk
include src/cli/module.mk
include tests/module.mk
include mk/aarch64.mk
include bench/module.mk
-include mk/ffmpeg.mk
-include mk/hardening.mk
-include mk/build-checks.mk
-include fuzz/module.mk
-include tests/robustness/module.mk
ifeq ($(HAVE_CUDA),yes)
-include src/adm_cuda/module.mk
include tests/cuda/module.mk
include bench/cuda/module.mk
endif

# The plain build's tests: unit, corpus, CLI.  They need the compilers, make,
# pkg-config, xz-utils and libgtest-dev; no FFmpeg, no Python package, no network.
check-lib: check-unit check-corpus check-cli

# The workbench: the plain build, the embedded ffmpeg (mk/ffmpeg.mk) and the Python
# package (python/module.mk); make demo runs it, make check tests all of it.
workbench: all
check: check-unit check-corpus
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
	@echo 'make                   the plain build into $(BUILD)/: libraries, headers, .pc, float_adm_score'
	@echo '                       (./configure first when config.mak is missing; no package installed)'
	@echo 'make check-lib         the plain build'"'"'s tests: unit, corpus, CLI'
	@echo 'make check-build       the environment'"'"'s flags on every line, and two builds byte-identical'
	@echo 'make deps              the packages make demo and make check need (apt-get as root, else the command)'
	@echo 'make workbench         the plain build, the embedded ffmpeg and the Python package (after deps)'
	@echo 'make demo              the float_adm filter on a sample pair through the embedded ffmpeg'
	@echo 'make workbench-libvmaf libvmaf from source, static, into the embedded ffmpeg (VMAF_SOURCE=DIR:'
	@echo '                       the vmaf tree to build, else tag v3.2.0 is cloned; after make workbench)'
	@echo 'make check             all tests: unit, corpus, CLI, FATE, robustness, install, Python (CUDA where configured)'
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
	@echo 'make install           libraries, headers, .pc files, float_adm_score (PREFIX=, LIBDIR=, INCLUDEDIR=, DESTDIR=);'
	@echo '                       the workbench'"'"'s ffmpeg and Python package where make demo built them'
	@echo 'make uninstall         removes what make install put there (same PREFIX=, DESTDIR=)'
	@echo 'make deb               a Debian package of the same: $(BUILD)/floatadm_VERSION_ARCH.deb'
	@echo 'make clean; ./configure --help lists the build switches.'
	@echo 'CONTRIBUTING.md: the layout, every test tier, the exactness rules.'
