# float_adm top-level Makefile.  SPDX-License-Identifier: LGPL-2.1-or-later
# Everything lands under $(BUILD)/.  `make` runs ./configure with defaults when
# config.mak is missing.

BUILD ?= build

# A fresh checkout: install what is missing (apt-get as root), then configure.
ifeq ($(wildcard config.mak),)
$(shell sh scripts/ensure-packages.sh >&2 && ./configure >&2)
endif
include config.mak

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
        bench
all:

include src/adm_core/module.mk
include src/common/module.mk
include src/cli/module.mk
include tests/module.mk
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

check: check-unit check-corpus

deps:
	sh scripts/ensure-packages.sh

# The unit and corpus tests again, built with ASan + UBSan in their own tree.
check-sanitize:
	$(MAKE) BUILD=$(BUILD)/sanitize SANITIZE=1 check-unit check-corpus

# The plain-division path of processors without RCPSS, built and tested here too
# (its corpus is compared within the other-host tolerance).
check-no-rcpss:
	$(MAKE) BUILD=$(BUILD)/no-rcpss RCPSS=no check-unit check-corpus check-cli

install: all
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(CORE_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(CORE_HEADER_OUT) $(DESTDIR)$(PREFIX)/include/
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(CORE_PC) > $(DESTDIR)$(PREFIX)/lib/pkgconfig/floatadm.pc
	install -m 755 $(CLI_BIN) $(DESTDIR)$(PREFIX)/bin/

clean:
	rm -rf $(BUILD)
