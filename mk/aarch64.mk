# aarch64, a target without RCPSS: the core, unit, corpus and CLI tests cross-built by
# Debian's g++-aarch64-linux-gnu and run under qemu-aarch64 (qemu-user), the corpus
# compared bit for bit with upstream's values made there (tests/corpus/hosts/none.json,
# docs/exactness.md).  Its tree is $(BUILD)/aarch64; configure's answer for such a
# build is checked first (tests/aarch64/test_configure_rcpss.sh).
# SPDX-License-Identifier: LGPL-2.1-or-later
.PHONY: check-aarch64

AARCH64_BUILD := $(BUILD)/aarch64
AARCH64_HOST := aarch64-linux-gnu
AARCH64_RUN := qemu-aarch64 -L /usr/$(AARCH64_HOST)
AARCH64_DEPS_STAMP := $(AARCH64_BUILD)/.aarch64-deps-installed
# GoogleTest for aarch64, from the source Debian's googletest package ships (libgtest-dev's
# libraries are the build machine's).
AARCH64_GTEST_SRC := /usr/src/googletest/googletest
AARCH64_GTEST := $(AARCH64_BUILD)/gtest
# The tree's own make, with the cross compilers and no flags or libraries of the build
# machine's (no libswscale: its is not the target's; -Wno-psabi: gcc's note that C++17
# passes std::pair<double, double> as GCC 10 began to, about the tests' own calls).
AARCH64_MAKE = $(MAKE) BUILD=$(AARCH64_BUILD) CC=$(AARCH64_HOST)-gcc CXX=$(AARCH64_HOST)-g++ \
    AR=$(AARCH64_HOST)-ar HAVE_CUDA=no HAVE_SWSCALE=no CFLAGS='-O2 -g' CXXFLAGS='-O2 -g' CPPFLAGS= LDFLAGS= \
    EXTRA_CFLAGS= EXTRA_CXXFLAGS='-Wno-psabi -isystem $(AARCH64_GTEST_SRC)/include' \
    EXTRA_LDFLAGS='-L$(abspath $(AARCH64_GTEST))'
AARCH64_CLI := $(AARCH64_BUILD)/bin/float_adm_score
# float_adm_score as the tests run it: a program, here one that runs it under qemu.
AARCH64_CLI_RUN := $(AARCH64_BUILD)/bin/float_adm_score-qemu

$(AARCH64_DEPS_STAMP): scripts/ensure-packages.sh
	sh scripts/ensure-packages.sh qemu-user g++-$(AARCH64_HOST) googletest
	@mkdir -p $(dir $@) && touch $@

$(AARCH64_GTEST)/libgtest.a: $(AARCH64_DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(AARCH64_HOST)-g++ -std=c++17 -O2 -pthread -isystem $(AARCH64_GTEST_SRC)/include \
	    -I$(AARCH64_GTEST_SRC) -c $(AARCH64_GTEST_SRC)/src/gtest-all.cc -o $(AARCH64_GTEST)/gtest-all.o
	$(AARCH64_HOST)-g++ -std=c++17 -O2 -pthread -isystem $(AARCH64_GTEST_SRC)/include \
	    -c $(AARCH64_GTEST_SRC)/src/gtest_main.cc -o $(AARCH64_GTEST)/gtest_main.o
	rm -f $@ $(AARCH64_GTEST)/libgtest_main.a
	$(AARCH64_HOST)-ar rcs $(AARCH64_GTEST)/libgtest_main.a $(AARCH64_GTEST)/gtest_main.o
	$(AARCH64_HOST)-ar rcs $@ $(AARCH64_GTEST)/gtest-all.o

$(AARCH64_CLI_RUN): $(AARCH64_DEPS_STAMP)
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec %s %s "$$@"\n' '$(AARCH64_RUN)' '$(abspath $(AARCH64_CLI))' > $@.tmp
	chmod +x $@.tmp && mv $@.tmp $@

# Every comparison bit for bit (FLOAT_ADM_REQUIRE_EXACT: no tolerance to fall back on).
# The vector levels of x86 are the scalar level there, so the corpus runs once through the
# C API, and once through float_adm_score in the CLI tests.  Under make -j2 the three run
# two at a time.
.PHONY: aarch64-build aarch64-check-unit aarch64-check-corpus aarch64-check-cli
aarch64-build: $(AARCH64_DEPS_STAMP) $(AARCH64_GTEST)/libgtest.a $(AARCH64_CLI_RUN)
	sh tests/aarch64/test_configure_rcpss.sh $(AARCH64_HOST)
	+$(AARCH64_MAKE) $(AARCH64_BUILD)/tests/unit_tests $(AARCH64_BUILD)/tests/corpus_test \
	    $(AARCH64_CLI) $(CORPUS_XZ:tests/corpus/%.xz=$(AARCH64_BUILD)/corpus/%) \
	    $(AARCH64_BUILD)/corpus/golden.json

aarch64-check-unit: aarch64-build
	$(AARCH64_RUN) $(AARCH64_BUILD)/tests/unit_tests

aarch64-check-corpus: aarch64-build
	FLOAT_ADM_REQUIRE_EXACT=1 FLOAT_ADM_CORPUS_DIR=$(AARCH64_BUILD)/corpus \
	    $(AARCH64_RUN) $(AARCH64_BUILD)/tests/corpus_test --gtest_filter=Corpus.EveryCaseThroughTheCApi

aarch64-check-cli: aarch64-build
	FLOAT_ADM_REQUIRE_EXACT=1 sh tests/cli/test_cli.sh $(AARCH64_CLI_RUN) tests/corpus

check-aarch64: aarch64-check-unit aarch64-check-corpus aarch64-check-cli
