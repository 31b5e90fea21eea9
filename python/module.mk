# The floatadm Python package (python/floatadm: ctypes over libfloatadm.so, numpy only).
#   make workbench (make demo) stages it into $(BUILD)/python, with where this build keeps
#                  the libraries and ffmpeg: PYTHONPATH=$(BUILD)/python python3 -c 'import floatadm'
#   make install   where it is staged (never in the plain build), installs it for the
#                  system python3 into $(PYTHONDIR), pointing at $(LIBDIR) and the
#                  embedded ffmpeg's $(FFMPEG_BINDIR)
# Its tests: check-python in tests/module.mk.
# SPDX-License-Identifier: LGPL-2.1-or-later

# Debian's interpreter: the one that sees apt's python3-numpy and python3-distributed.
PYTHON3 := /usr/bin/python3
PY_SRCS := $(wildcard python/floatadm/*.py)
PY_STAGE := $(BUILD)/python/floatadm
PY_STAMP := $(BUILD)/python/.staged
# The modules' names: a module added (older than the stage) or removed stages again.
PY_LIST := $(BUILD)/python/.modules
PY_VERSION = $(shell $(PYTHON3) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
# Debian's python3 reads /usr/lib/python3/dist-packages and, for other prefixes such
# as /usr/local, PREFIX/lib/python3.X/dist-packages.
PYTHONDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/python3/dist-packages,$(PREFIX)/lib/python$(PY_VERSION)/dist-packages)

.PHONY: python install-python uninstall-python FORCE

workbench: python
python: $(PY_STAMP)

# _config.py: where the package finds libfloatadm (and libfloatadm_cuda) and ffmpeg.
# The stage is rebuilt whole, so that a module removed from python/ goes away.
$(PY_LIST): FORCE
	@mkdir -p $(dir $@)
	@echo '$(PY_SRCS)' | cmp -s - $@ || echo '$(PY_SRCS)' >$@

$(PY_STAMP): $(PY_SRCS) $(PY_LIST) python/module.mk config.mak
	rm -rf $(PY_STAGE).tmp && mkdir -p $(PY_STAGE).tmp
	cp $(PY_SRCS) $(PY_STAGE).tmp/
	printf '%s\n' '# Written by make: where this build keeps its libraries and programs.' \
	  'LIBDIR = "$(abspath $(CORE_SHLIB_DIR))"' 'BINDIR = "$(abspath $(BUILD)/bin)"' \
	  > $(PY_STAGE).tmp/_config.py
	rm -rf $(PY_STAGE) && mv $(PY_STAGE).tmp $(PY_STAGE)
	touch $@

# make deb packages `make install DESTDIR=$(DEB_STAGE)`: the package carries the Python
# package too (and depends on python3 and python3-numpy).
install: $(if $(wildcard $(PY_STAMP)),install-python)
uninstall: uninstall-python

install-python: $(PY_STAMP)
	$(INSTALL) -d $(DESTDIR)$(PYTHONDIR)/floatadm
	$(INSTALL) -m 644 $(PY_SRCS) $(DESTDIR)$(PYTHONDIR)/floatadm/
	printf '%s\n' '# Written by make install: where the libraries and programs are installed.' \
	  'LIBDIR = "$(LIBDIR)"' 'BINDIR = "$(FFMPEG_BINDIR)"' > $(BUILD)/python/_config.install.py
	$(INSTALL) -m 644 $(BUILD)/python/_config.install.py $(DESTDIR)$(PYTHONDIR)/floatadm/_config.py
	rm -f $(BUILD)/python/_config.install.py

# Before uninstall's own recipe, which removes the directories left empty: ours first.
uninstall-python:
	rm -rf $(DESTDIR)$(PYTHONDIR)/floatadm
	rmdir $(DESTDIR)$(PYTHONDIR) $(DESTDIR)$(dir $(PYTHONDIR)) 2>/dev/null || true

# The tests load the CUDA library too where it is built (they need a GPU to use it).
ifeq ($(HAVE_CUDA),yes)
check-python: $(CUDA_SHLIB_LINKS)
endif
