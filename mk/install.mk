# make install, make uninstall and make deb.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# install    under $(DESTDIR)$(PREFIX): libfloatadm as a shared library (with its SONAME
#            and development links) and an archive, the same for libfloatadm_cuda where
#            CUDA is built, the public headers of include/ in INCLUDEDIR/floatadm,
#            floatadm.pc (and floatadm_cuda.pc), float_adm_score and its man page: what
#            the plain build makes.  The workbench's embedded ffmpeg and ffprobe where
#            $(BUILD)/bin holds them, and its Python package where staged (make demo
#            builds both; install only brings them up to date).  BINDIR, LIBDIR,
#            INCLUDEDIR, MANDIR, PKGCONFIGDIR and FFMPEG_BINDIR may be set.
#            Through 1.x, INCLUDEDIR/float_adm.h (and float_adm_cuda.h) stay, each one
#            line that includes floatadm/'s: programs that include <float_adm.h> with
#            or without pkg-config (whose Cflags name INCLUDEDIR) keep building.  2.0
#            drops them.
#            The embedded ffmpeg and ffprobe go where no one else looks for an ffmpeg,
#            FFMPEG_BINDIR (PREFIX/lib/floatadm/bin, as jellyfin-ffmpeg keeps its own in
#            /usr/lib/jellyfin-ffmpeg), with floatadm-ffmpeg and floatadm-ffprobe in
#            BINDIR leading there: the distribution's ffmpeg stays the one on PATH.  The
#            programs hold libfloatadm (linked statically): they need no search path.
#            The last line says what a program built against the shared library needs
#            to find it at run time.
# uninstall  removes those files, then the directories under PREFIX they leave empty.
# deb        $(BUILD)/floatadm_VERSION_ARCH.deb: the same installed under /usr, libraries
#            in the multiarch directory (scripts/make-deb.sh).

BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
FFMPEG_BINDIR ?= $(PREFIX)/lib/floatadm/bin
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
INSTALL_PROGRAMS := $(CLI_BIN)
INSTALL_FFMPEG := $(wildcard $(BUILD)/bin/ffmpeg $(BUILD)/bin/ffprobe)
# Each embedded program's name on PATH.
FFMPEG_ENTRY_POINTS := $(patsubst %,floatadm-%,$(notdir $(INSTALL_FFMPEG)))
INSTALL_MAN1 := docs/man/float_adm_score.1
# Each shared library's links: its SONAME and the name -l finds.
shlib_links = $(foreach lib,$(notdir $(INSTALL_SHLIBS)), \
                $(firstword $(subst .so., ,$(lib))).so.$(CORE_SOVERSION) \
                $(firstword $(subst .so., ,$(lib))).so)
# Where install puts files: uninstall removes each that is left empty, and its parents
# up to PREFIX.  PYTHONDIR: python/module.mk's.
HEADER_DIR = $(INCLUDEDIR)/floatadm
INSTALL_DIRS = $(BINDIR) $(LIBDIR) $(PKGCONFIGDIR) $(HEADER_DIR) $(MANDIR)/man1 $(PYTHONDIR) \
               $(FFMPEG_BINDIR)
# relpath FROM,TO: the absolute directory TO relative to the absolute directory FROM (for
# the entry points' links; make alone, no realpath).
relpath_words = $(if $(and $(1),$(2)),$(if $(filter $(firstword $(1)),$(firstword $(2))), \
    $(call relpath_words,$(wordlist 2,999,$(1)),$(wordlist 2,999,$(2))), \
    $(patsubst %,..,$(1)) $(2)),$(patsubst %,..,$(1)) $(2))
relpath = $(subst $(eval) ,/,$(strip $(call relpath_words,$(subst /, ,$(1)),$(subst /, ,$(2)))))
# The installed .pc files point at the installed tree; a directory under PREFIX is
# written relative to ${prefix}.
PC_DIR = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
# The build tree's .pc files name the static archives' libraries in Libs too (it has no
# shared library); installed beside the shared ones, those stay in Libs.private.
PC_SED = -e 's|^prefix=.*|prefix=$(PREFIX)|' -e 's|^libdir=.*|libdir=$(call PC_DIR,$(LIBDIR))|' \
         -e 's|^includedir=.*|includedir=$(call PC_DIR,$(INCLUDEDIR))|' \
         -e 's|^\(Libs: -L$${libdir} -l[a-z_]*\) .*|\1|'

.PHONY: install uninstall deb install-prereqs

install-prereqs: $(INSTALL_SHLIBS) $(INSTALL_ARCHIVES) $(INSTALL_PCS) $(INSTALL_PROGRAMS) \
                 $(INSTALL_FFMPEG)

# Where the dynamic linker looks without being told: the default directories and
# those of /etc/ld.so.conf (glibc's ldconfig -v lists them; elsewhere none is known, and
# the message names LD_LIBRARY_PATH).  Only for an install without DESTDIR.
LDCONFIG := $(firstword $(wildcard /sbin/ldconfig /usr/sbin/ldconfig))
LDSO_DIRS = $(if $(LDCONFIG),$(shell $(LDCONFIG) -v -N -X 2>/dev/null | sed -n 's|^\(/[^:]*\):.*|\1|p'))

install: install-prereqs
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(HEADER_DIR) \
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
	$(INSTALL) -m 644 $(INSTALL_HEADERS) $(DESTDIR)$(HEADER_DIR)/
	for h in $(notdir $(INSTALL_HEADERS)); do \
	    printf '%s\n' "/* $$h of float_adm 1.x's include path: the header is <floatadm/$$h>. */" \
	        "#include \"floatadm/$$h\"" > $(BUILD)/install.h && \
	    $(INSTALL) -m 644 $(BUILD)/install.h $(DESTDIR)$(INCLUDEDIR)/$$h || exit 1; \
	done; rm -f $(BUILD)/install.h
	$(INSTALL) -m 755 $(INSTALL_PROGRAMS) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 $(INSTALL_MAN1) $(DESTDIR)$(MANDIR)/man1/
ifneq ($(INSTALL_FFMPEG),)
	$(INSTALL) -d $(DESTDIR)$(FFMPEG_BINDIR)
	$(INSTALL) -m 755 $(INSTALL_FFMPEG) $(DESTDIR)$(FFMPEG_BINDIR)/
	for prog in $(notdir $(INSTALL_FFMPEG)); do \
	    ln -sf $(or $(call relpath,$(abspath $(BINDIR)),$(abspath $(FFMPEG_BINDIR))),.)/$$prog \
	        $(DESTDIR)$(BINDIR)/floatadm-$$prog || exit 1; \
	done
endif
ifeq ($(DESTDIR),)
	@if echo " $(LDSO_DIRS) " | grep -q " $(abspath $(LIBDIR)) "; then \
	    echo "make install: libfloatadm is in $(LIBDIR): run ldconfig (as root) before starting programs built against it"; \
	else \
	    echo "make install: programs built against libfloatadm find it with LD_LIBRARY_PATH=$(LIBDIR) (or link them with -Wl,-rpath,$(LIBDIR))"; \
	fi
endif

uninstall:
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,$(notdir $(INSTALL_SHLIBS) $(INSTALL_ARCHIVES)) \
	                                       $(shlib_links)) \
	      $(addprefix $(DESTDIR)$(PKGCONFIGDIR)/,$(notdir $(INSTALL_PCS))) \
	      $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(INSTALL_HEADERS))) \
	      $(addprefix $(DESTDIR)$(HEADER_DIR)/,$(notdir $(INSTALL_HEADERS))) \
	      $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(INSTALL_PROGRAMS)) $(FFMPEG_ENTRY_POINTS)) \
	      $(addprefix $(DESTDIR)$(FFMPEG_BINDIR)/,$(notdir $(INSTALL_FFMPEG))) \
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
