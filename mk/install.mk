# make install, make uninstall and make deb.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# install    under $(DESTDIR)$(PREFIX): libfloatadm as a shared library (with its SONAME
#            and development links) and an archive, the same for libfloatadm_cuda where
#            CUDA is built, the public headers of include/, floatadm.pc (and
#            floatadm_cuda.pc), float_adm_score and its man page, and ffmpeg and ffprobe
#            where $(BUILD)/bin holds them (`make` builds them, install only brings them
#            up to date).  BINDIR, LIBDIR, INCLUDEDIR, MANDIR and PKGCONFIGDIR may be set.
# uninstall  removes those files, then the directories under PREFIX they leave empty.
# deb        $(BUILD)/floatadm_VERSION_ARCH.deb: the same installed under /usr, libraries
#            in the multiarch directory (scripts/make-deb.sh).

BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL ?= install

INSTALL_SHLIBS := $(CORE_SHLIB)
INSTALL_ARCHIVES := $(CORE_LIB)
INSTALL_PCS := $(CORE_PC)
INSTALL_HEADERS := $(filter-out include/float_adm_cuda.h,$(wildcard include/*.h))
ifeq ($(HAVE_CUDA),yes)
INSTALL_SHLIBS += $(CUDA_SHLIB)
INSTALL_ARCHIVES += $(CUDA_LIB)
INSTALL_PCS += $(CUDA_PC)
INSTALL_HEADERS += include/float_adm_cuda.h
endif
INSTALL_PROGRAMS := $(CLI_BIN) $(wildcard $(BUILD)/bin/ffmpeg $(BUILD)/bin/ffprobe)
INSTALL_MAN1 := doc/float_adm_score.1
# Each shared library's links: its SONAME and the name -l finds.
shlib_links = $(foreach lib,$(notdir $(INSTALL_SHLIBS)), \
                $(firstword $(subst .so., ,$(lib))).so.$(CORE_SOVERSION) \
                $(firstword $(subst .so., ,$(lib))).so)
# Where install puts files: uninstall removes each that is left empty, and its parents
# up to PREFIX.  PYTHONDIR: python/module.mk's.
INSTALL_DIRS = $(BINDIR) $(LIBDIR) $(PKGCONFIGDIR) $(INCLUDEDIR) $(MANDIR)/man1 $(PYTHONDIR)
# The installed .pc files point at the installed tree; a directory under PREFIX is
# written relative to ${prefix}.
PC_DIR = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
PC_SED = -e 's|^prefix=.*|prefix=$(PREFIX)|' -e 's|^libdir=.*|libdir=$(call PC_DIR,$(LIBDIR))|' \
         -e 's|^includedir=.*|includedir=$(call PC_DIR,$(INCLUDEDIR))|'

.PHONY: install uninstall deb install-prereqs

install-prereqs: $(INSTALL_SHLIBS) $(INSTALL_ARCHIVES) $(INSTALL_PCS) $(INSTALL_PROGRAMS)

install: install-prereqs
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(INCLUDEDIR) \
	    $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 644 $(INSTALL_SHLIBS) $(INSTALL_ARCHIVES) $(DESTDIR)$(LIBDIR)/
	for lib in $(notdir $(INSTALL_SHLIBS)); do \
	    ln -sf $$lib $(DESTDIR)$(LIBDIR)/$${lib%%.so.*}.so.$(CORE_SOVERSION) && \
	    ln -sf $$lib $(DESTDIR)$(LIBDIR)/$${lib%%.so.*}.so || exit 1; \
	done
	for pc in $(INSTALL_PCS); do \
	    sed $(PC_SED) $$pc > $(BUILD)/install.pc && \
	    $(INSTALL) -m 644 $(BUILD)/install.pc $(DESTDIR)$(PKGCONFIGDIR)/$${pc##*/} || exit 1; \
	done; rm -f $(BUILD)/install.pc
	$(INSTALL) -m 644 $(INSTALL_HEADERS) $(DESTDIR)$(INCLUDEDIR)/
	$(INSTALL) -m 755 $(INSTALL_PROGRAMS) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 $(INSTALL_MAN1) $(DESTDIR)$(MANDIR)/man1/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,$(notdir $(INSTALL_SHLIBS) $(INSTALL_ARCHIVES)) \
	                                       $(shlib_links)) \
	      $(addprefix $(DESTDIR)$(PKGCONFIGDIR)/,$(notdir $(INSTALL_PCS))) \
	      $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(INSTALL_HEADERS))) \
	      $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(INSTALL_PROGRAMS))) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(INSTALL_MAN1)))
	for dir in $(INSTALL_DIRS); do \
	    while [ "$${dir#$(PREFIX)/}" != "$$dir" ] && rmdir "$(DESTDIR)$$dir" 2>/dev/null; do \
	        dir=$${dir%/*}; \
	    done; \
	done

# The package's own install: under /usr, libraries where the platform's multiarch
# directory (x86_64-linux-gnu, ...) puts them.
DEB_MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
DEB_LIBDIR := /usr/lib$(if $(DEB_MULTIARCH),/$(DEB_MULTIARCH))
DEB_STAGE := $(BUILD)/deb/root

deb: install-prereqs
	rm -rf $(DEB_STAGE)
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DEB_STAGE)) PREFIX=/usr \
	    LIBDIR=$(DEB_LIBDIR)
	sh scripts/make-deb.sh $(DEB_STAGE) $(CORE_VERSION) $(BUILD)
