# The embedded FFmpeg with the float_adm filter, its FATE tests and the demo.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# build/ffmpeg-<version>/src    patched FFmpeg tree (scripts/ffmpeg-prepare.sh); the
#                               build below is kept when it is laid out again (the
#                               release's files keep their times: only what the
#                               series changes is rebuilt)
# build/ffmpeg-<version>/build  its out-of-tree build; FATE runs there
# build/bin/ffmpeg, ffprobe     the default version's programs
#
# check-ffmpeg-all builds and tests the three versions side by side; only the
# configured FFMPEG_VERSION is copied to build/bin.

FF_VERSIONS   := 7.1 8.1 9.0
FF_DIR        := $(BUILD)/ffmpeg-$(FFMPEG_VERSION)
FF_SRC        := $(FF_DIR)/src
FF_OBJ        := $(FF_DIR)/build
FF_CACHE      := $(BUILD)/cache
NV_PREFIX     := $(BUILD)/nv-codec-headers
FATE_SAMPLES  := $(BUILD)/fate-samples
FF_PC_DIRS     = $(ABS_BUILD)/lib/pkgconfig:$(abspath $(NV_PREFIX))/lib/pkgconfig
# libvmaf built from source by make workbench-libvmaf (below): where it is, the
# workbench's FFmpeg is configured with it, before a distribution's libvmaf.
FF_VMAF_PREFIX := $(BUILD)/vmaf
FF_VMAF_PC    := $(FF_VMAF_PREFIX)/lib/pkgconfig/libvmaf.pc

# libfloatadm, and its CUDA backend where configured: FFmpeg's configure finds
# floatadm_cuda.pc and builds the float_adm_cuda filter.
FF_CUDA_PC    := $(BUILD)/lib/pkgconfig/floatadm_cuda.pc
FF_FLOATADM_LIBS := $(CORE_LIB) $(if $(filter yes,$(HAVE_CUDA)),$(BUILD)/lib/libfloatadm_cuda.a)
FF_FLOATADM_DEPS := $(CORE_PC) $(CORE_HEADER_OUT) $(if $(filter yes,$(HAVE_CUDA)),$(FF_CUDA_PC))
# FFmpeg's own dependency files track the header once it exists.
FF_FLOATADM_ORDER := $(FF_FLOATADM_LIBS) $(if $(filter yes,$(HAVE_CUDA)),$(BUILD)/include/float_adm_cuda.h)

# Our files that live inside the FFmpeg tree: the series' and the extras' (the
# filters, the FATE refs), and the project's own tests, never in the series: the bit-exact
# corpus (tests/fate/corpus/) and the filter's other tests (tests/fate/project/:
# logs, maps, errors, pairing through encoders), whose helpers go into the tree's
# fate-run.sh.
FF_FILTER_FILES := $(wildcard libavfilter/*.c libavfilter/*.h)
FF_FATE_FILES := $(wildcard tests/fate/ref/*)
# The FATE tests the series and the extras add to filter-video.mak (patches/src/0003-*, 0004-*).
FF_SERIES_FATE := fate-filter-refcmp-float-adm-yuv fate-filter-refcmp-float-adm-p010 \
                  fate-filter-float-adm-log-rebuild fate-filter-float-adm-map
FF_PATCH_SOURCES := $(shell find patches/src -type f)
FF_CORPUS_FILES := tests/fate/corpus/float_adm_corpus.mak tests/fate/corpus/float_adm_reltol.awk \
                   $(wildcard tests/fate/corpus/ref/*)
FF_PROJECT_FATE := tests/fate/project/float_adm_project.mak tests/fate/project/float_adm_project-run.sh \
                   $(wildcard tests/fate/project/ref/*)
FF_OWN_FILES  := $(FF_FILTER_FILES) $(FF_FATE_FILES) $(FF_CORPUS_FILES) $(FF_PROJECT_FATE)
# How FATE compares scores on this host (FLOAT_ADM_RELTOL or nothing), written with the refs.
FF_HOST_MAK   := $(FF_SRC)/tests/fate/float_adm_host.mak
# For a processor without recorded scores: the corpus test's relative tolerance.
FATE_RELTOL   := 1e-6
FF_JOBS        = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(shell nproc))

.PHONY: ffmpeg check-fate check-ffmpeg-plain check-fate-other-host check-ffmpeg-all fate-samples ff-always
.PRECIOUS: $(FF_DIR)/.prepared

workbench: $(BUILD)/bin/ffmpeg $(BUILD)/bin/ffprobe
check: check-fate check-patches check-ffmpeg-plain

# patches/ffmpeg-<version>/ is generated (scripts/ffmpeg-gen-patches.py) from
# the release tarball and the project's files: `make patches` regenerates every
# version's series, check-patches fails where the committed one is stale.
.PHONY: patches check-patches
patches:
	for v in $(FF_VERSIONS); do \
	    tarball=$$(scripts/ffmpeg-fetch.sh ffmpeg $$v $(FF_CACHE)) && \
	    scripts/ffmpeg-gen-patches.py $$tarball patches/ffmpeg-$$v || exit 1; \
	done
check-patches:
	tarball=$$(scripts/ffmpeg-fetch.sh ffmpeg $(FFMPEG_VERSION) $(FF_CACHE)) && \
	rm -rf $(BUILD)/patches-check && \
	scripts/ffmpeg-gen-patches.py $$tarball $(BUILD)/patches-check && \
	if ! diff -r -q patches/ffmpeg-$(FFMPEG_VERSION) $(BUILD)/patches-check; then \
	    echo "patches/ffmpeg-$(FFMPEG_VERSION) is stale: run make patches" >&2; exit 1; \
	fi

$(FF_DIR)/.prepared: patches/ffmpeg-$(FFMPEG_VERSION)/series $(wildcard patches/ffmpeg-$(FFMPEG_VERSION)/*.patch) \
                     $(wildcard patches/ffmpeg-$(FFMPEG_VERSION)/extras/*) \
                     $(if $(filter 9.0,$(FFMPEG_VERSION)),$(wildcard patches/ffmpeg-sched/*.patch)) \
                     scripts/ffmpeg-prepare.sh scripts/ffmpeg-fetch.sh
	scripts/ffmpeg-prepare.sh $(FFMPEG_VERSION) "$(FFMPEG_SOURCE)" $(FF_SRC) $(FF_CACHE)
	touch $@

# The RCPSS fingerprint of the core FFmpeg links (FLOAT_ADM_TEST_FINGERPRINT, for
# tests only, stands in for it), rewritten only when it changes.
$(FF_DIR)/.rcpss: $(CLI_BIN) ff-always
	@mkdir -p $(dir $@)
	@fp=$${FLOAT_ADM_TEST_FINGERPRINT:-$$($(CLI_BIN) --version | sed -n 's/^rcpss fingerprint: //p')}; \
	[ -n "$$fp" ] || { echo "$(CLI_BIN) --version gives no RCPSS fingerprint" >&2; exit 1; }; \
	[ "$$(cat $@ 2>/dev/null)" = "$$fp" ] || echo "$$fp" > $@
ff-always:

# Whether libvmaf is built in $(FF_VMAF_PREFIX) (make workbench-libvmaf), rewritten only
# when that changes: FFmpeg is configured again when it comes or goes.
$(FF_DIR)/.libvmaf: ff-always
	@mkdir -p $(dir $@)
	@state=$(if $(wildcard $(FF_VMAF_PC)),built,absent); \
	[ "$$(cat $@ 2>/dev/null)" = "$$state" ] || echo "$$state" > $@

# The filter's files as the series carries them (generated from the working
# copies: edits are built before the series is regenerated), written only when
# changed: FFmpeg's make must see a changed filter as newer, and an unchanged
# one as unchanged.
# The committed refs hold golden.json's scores, made on a processor with its
# RCPSS fingerprint; where tests/corpus/hosts/ has this host's fingerprint,
# the score refs are rewritten with those upstream values.  With neither, FATE
# compares the scores within FATE_RELTOL (float_adm_host.mak).  All of this is
# the corpus tests' alone: the series' tests need nothing from here.
$(FF_DIR)/.synced: $(FF_DIR)/.prepared $(FF_OWN_FILES) $(FF_PATCH_SOURCES) $(FF_DIR)/.rcpss scripts/ffmpeg-fate-gen.py \
                   scripts/ffmpeg-gen-patches.py include/float_adm.h \
                   tests/corpus/golden.json $(wildcard tests/corpus/hosts/*.json)
	cp tests/fate/corpus/float_adm_corpus.mak tests/fate/corpus/float_adm_reltol.awk \
	    tests/fate/project/float_adm_project.mak $(FF_SRC)/tests/fate/
	cp tests/fate/ref/* tests/fate/corpus/ref/* tests/fate/project/ref/* $(FF_SRC)/tests/ref/fate/
	@# After the refs: an extra may change a series' ref (patches/src/0006-*).
	scripts/ffmpeg-gen-patches.py --filter-sources $(FF_SRC)
	for mak in float_adm_project.mak float_adm_corpus.mak; do \
	    grep -q $$mak $(FF_SRC)/tests/Makefile || \
	    sed -i "/^include .*tests\/fate\/filter-video.mak\$$/a include \$$(SRC_PATH)/tests/fate/$$mak" \
	        $(FF_SRC)/tests/Makefile; \
	    grep -q $$mak $(FF_SRC)/tests/Makefile || exit 1; \
	done
	f=$(FF_SRC)/tests/fate-run.sh; git -C $(FF_SRC) checkout -q -- tests/fate-run.sh && \
	awk '/^pixfmt_conversion\(\)\{$$/ { while ((getline l < "tests/fate/project/float_adm_project-run.sh") > 0) print l } \
	     { print }' $$f > $$f.tmp && cat $$f.tmp > $$f && rm -f $$f.tmp
	grep -q '^float_adm_log()' $(FF_SRC)/tests/fate-run.sh
	@fp=$$(cat $(FF_DIR)/.rcpss); \
	if [ -f tests/corpus/hosts/$$fp.json ]; then \
	    echo "FATE refs: upstream's scores for this host's RCPSS fingerprint $$fp"; \
	    scripts/ffmpeg-fate-gen.py --refs $(FF_SRC)/tests/ref/fate tests/corpus/hosts/$$fp.json; \
	fi; \
	if [ -f tests/corpus/hosts/$$fp.json ] || grep -q "\"rcpss_sha256\": \"$$fp\"" tests/corpus/golden.json; then \
	    echo "# RCPSS fingerprint $$fp: the refs hold its scores, compared bit for bit" > $(FF_HOST_MAK); \
	else \
	    printf '%s\n' "# NOTE: this host's RCPSS fingerprint $$fp differs from the golden host's and has no recorded scores: FATE compares them within a relative tolerance of $(FATE_RELTOL)" \
	        "FLOAT_ADM_RELTOL := $(FATE_RELTOL)" > $(FF_HOST_MAK); \
	fi
	touch $@

# NV_MAKE, not $(MAKE): make -n runs a recipe line that names $(MAKE), and this one fetches.
NV_MAKE = $(MAKE)
$(NV_PREFIX)/.installed: scripts/ffmpeg-fetch.sh
	rm -rf $(BUILD)/nv-codec-headers-src && mkdir -p $(BUILD)/nv-codec-headers-src
	if tarball=$$(scripts/ffmpeg-fetch.sh nv-codec-headers 12.1 $(FF_CACHE)); then \
	    tar xf $$tarball -C $(BUILD)/nv-codec-headers-src --strip-components=1 && \
	    $(NV_MAKE) -C $(BUILD)/nv-codec-headers-src PREFIX=$(abspath $(NV_PREFIX)) install >/dev/null; \
	else \
	    echo "nv-codec-headers unavailable: FFmpeg is built without the CUDA hwcontext" >&2; \
	fi
	rm -rf $(BUILD)/nv-codec-headers-src
	mkdir -p $(NV_PREFIX) && touch $@

# configure links a test program against libfloatadm: it must exist.
$(FF_OBJ)/ffbuild/config.mak: $(FF_DIR)/.prepared $(NV_PREFIX)/.installed $(FF_FLOATADM_DEPS) \
                              $(FF_DIR)/.libvmaf $(wildcard $(FF_VMAF_PC)) \
                              scripts/ffmpeg-configure.sh mk/ffmpeg.mk | $(FF_FLOATADM_ORDER) $(DEPS_STAMP)
	$(if $(filter yes,$(HAVE_CUDA)),,rm -f $(FF_CUDA_PC))
	scripts/ffmpeg-configure.sh $(if $(filter yes,$(GPL)),--gpl) $(FF_SRC) $(FF_OBJ) \
	    $(FF_PC_DIRS):$(abspath $(dir $(FF_VMAF_PC))) \
	    --cc="$(CC)" --cxx="$(CXX)" $(if $(filter debug,$(BUILD_TYPE)),--disable-optimizations --disable-stripping)
	@if [ "$(HAVE_CUDA)" = yes ] && grep -q '^CONFIG_CUDA=yes' $@ && ! grep -q '^CONFIG_FLOAT_ADM_CUDA_FILTER=yes' $@; then \
	    echo "FFmpeg's configure did not take floatadm_cuda.pc (see $(FF_OBJ)/ffbuild/config.log):" \
	        "no float_adm_cuda filter" >&2; \
	    rm -f $@; exit 1; \
	fi

# FFmpeg's make knows its own dependencies but not libfloatadm, nor a libvmaf built
# here: relink the programs when one of their libraries is newer.
FF_RELINK_LIBS = $(FF_FLOATADM_LIBS) $(wildcard $(FF_VMAF_PREFIX)/lib/libvmaf.a)
ffmpeg: $(FF_OBJ)/ffbuild/config.mak $(FF_DIR)/.synced $(FF_RELINK_LIBS)
	for prog in ffmpeg ffprobe; do \
	    for lib in $(FF_RELINK_LIBS); do \
	        [ $$lib -nt $(FF_OBJ)/$${prog}_g ] && rm -f $(FF_OBJ)/$${prog}_g $(FF_OBJ)/$$prog; \
	    done; \
	done; true
	$(MAKE) -C $(FF_OBJ) $(FF_JOBS) ffmpeg ffprobe

$(BUILD)/bin/ffmpeg $(BUILD)/bin/ffprobe: ffmpeg
	@mkdir -p $(dir $@)
	# Copied beside and renamed over: a program still running the old file keeps it.
	cmp -s $(FF_OBJ)/$(notdir $@) $@ || { cp $(FF_OBJ)/$(notdir $@) $@.tmp && mv -f $@.tmp $@; }
	scripts/ffmpeg-check-libs.sh $@

# libvmaf from Netflix's source, static, into the workbench's ffmpeg (docs/ladder.md,
# "VMAF"): scripts/workbench-libvmaf.sh builds it into $(FF_VMAF_PREFIX), from
# VMAF_SOURCE=DIR (the top of the vmaf tree) or else a clone of tag v3.2.0; FFmpeg is
# configured and linked again, then the filter is checked to be there and no libvmaf
# to be loaded at run time.  After make workbench: it installs no package.  libvmaf is
# compiled by FFmpeg's compilers.
.PHONY: workbench-libvmaf
workbench-libvmaf:
	@[ -x $(BUILD)/bin/ffmpeg ] || { echo "workbench-libvmaf: no $(BUILD)/bin/ffmpeg: make workbench first" >&2; exit 1; }
	CC='$(CC)' CXX='$(CXX)' scripts/workbench-libvmaf.sh $(if $(VMAF_SOURCE),--source '$(subst ','\'',$(VMAF_SOURCE))') $(BUILD)
	$(MAKE) $(BUILD)/bin/ffmpeg $(BUILD)/bin/ffprobe
	@$(BUILD)/bin/ffmpeg -hide_banner -filters | grep -qw libvmaf || \
	    { echo "workbench-libvmaf: $(BUILD)/bin/ffmpeg has no libvmaf filter (see $(FF_OBJ)/ffbuild/config.log)" >&2; exit 1; }
	@! ldd $(BUILD)/bin/ffmpeg | grep vmaf || \
	    { echo "workbench-libvmaf: $(BUILD)/bin/ffmpeg loads libvmaf at run time: not the static one of $(FF_VMAF_PREFIX)" >&2; exit 1; }
	@echo "workbench-libvmaf: $(BUILD)/bin/ffmpeg has the libvmaf filter, libvmaf linked in"

# Its refusals (a missing tool, an unusable VMAF_SOURCE), with no libvmaf and no network.
.PHONY: check-workbench-libvmaf
check-workbench-libvmaf:
	sh tests/build/test_workbench_libvmaf.sh
check: check-workbench-libvmaf

# The corpus, decompressed where FATE's SAMPLES points.
FATE_SAMPLE_FILES := $(patsubst tests/corpus/%.xz,$(FATE_SAMPLES)/float_adm/%,$(wildcard tests/corpus/*.yuv.xz))
$(FATE_SAMPLES)/float_adm/%: tests/corpus/%.xz
	@mkdir -p $(dir $@)
	xz -dc $< > $@.tmp && mv $@.tmp $@
fate-samples: $(FATE_SAMPLE_FILES)

# The series' tests (any processor, no samples), the project's, and the corpus bit
# for bit.
check-fate: ffmpeg fate-samples
	@sed -n 's/^# NOTE: /NOTE: /p' $(FF_HOST_MAK)
	$(MAKE) -C $(FF_OBJ) $(FF_JOBS) -k $(FF_SERIES_FATE) fate-float-adm-project fate-float-adm-corpus \
	    SAMPLES=$(abspath $(FATE_SAMPLES))

# What FFmpeg's own checks say of the series, in this release's tree: the
# tree is the series applied (tracked files: only the project's includes added to
# tests/Makefile and its helpers to tests/fate-run.sh), fate-source, the filter's headers on their own (as
# checkheaders compiles them), and with libfloatadm disabled no header that
# needs it left to checkheaders.  The series' FATE tests read nothing of this
# project's (no samples, no host file): check-fate runs them in this tree as a
# plain tree would.
check-ffmpeg-plain: ffmpeg
	git -C $(FF_SRC) diff --exit-code --stat -- . ':!tests/Makefile' ':!tests/fate-run.sh'
	$(MAKE) -C $(FF_OBJ) fate-source
	$(MAKE) -C $(FF_OBJ) $(FF_JOBS) $(patsubst %,%.o,$(filter %.h,$(FF_FILTER_FILES)))
	! $(MAKE) -C $(FF_OBJ) -n -B checkheaders CONFIG_LIBFLOATADM= 2>/dev/null | grep -q 'float_adm[a-z_]*\.h'

# The series' and the project's FATE tests as a processor whose scores differ from the refs'
# runs them: this release's FFmpeg build relinked, as ffmpeg-other-host,
# against the core built with the division of processors without RCPSS (its
# values differ from this host's in the last bits, as another CPU's do).
# Nothing in the tree changes; first it proves the two programs score the tests' content differently,
# so the run cannot pass by comparing the same bits.
OTHER_HOST_BUILD := $(BUILD)/no-rcpss
OTHER_HOST_PROBE  = -f lavfi -i testsrc2=size=300x200:rate=1:duration=5 \
                    -lavfi "split[ref][tmp];[tmp]avgblur=4[enc];[enc][ref]float_adm=debug=1,metadata=print:file=-" -f null -
check-fate-other-host: ffmpeg
	$(MAKE) BUILD=$(OTHER_HOST_BUILD) RCPSS=no $(OTHER_HOST_BUILD)/lib/libfloatadm.a
	libs=$$(sed -n 's/^EXTRALIBS-avfilter=//p' $(FF_OBJ)/ffbuild/config.mak) && \
	$(MAKE) -C $(FF_OBJ) $(FF_JOBS) PROGSSUF=-other-host \
	    EXTRALIBS-avfilter="-L$(abspath $(OTHER_HOST_BUILD))/lib $$libs" ffmpeg-other-host
	$(FF_OBJ)/ffmpeg -v error $(OTHER_HOST_PROBE) > $(FF_DIR)/this-host.txt
	$(FF_OBJ)/ffmpeg-other-host -v error $(OTHER_HOST_PROBE) > $(FF_DIR)/other-host.txt
	@if cmp -s $(FF_DIR)/this-host.txt $(FF_DIR)/other-host.txt; then \
	    echo "ffmpeg-other-host scores as this host does: the run would prove nothing" >&2; exit 1; fi
	$(MAKE) -C $(FF_OBJ) $(FF_JOBS) -k PROGSSUF=-other-host $(FF_SERIES_FATE) fate-float-adm-project

# Other versions fetch their own pinned release: FFMPEG_SOURCE names one tree.
check-ffmpeg-all:
	for v in $(FF_VERSIONS); do \
	    if [ $$v = $(FFMPEG_VERSION) ]; then src="$(FFMPEG_SOURCE)"; else src=; fi; \
	    $(MAKE) FFMPEG_VERSION=$$v FFMPEG_SOURCE="$$src" check-fate check-ffmpeg-plain check-patches || exit 1; \
	done

# The demo builds the workbench (the README promises it), then runs the filter.
demo: workbench
	scripts/ffmpeg-demo.sh $(BUILD)/bin/ffmpeg $(BUILD)/demo

# FFmpeg's own checks of the series in a fresh release tree, then of the series
# with the extras (scripts/ffmpeg-plain-check.sh): two whole FFmpeg builds, so
# run by hand; docs/fate-ffmpeg.md records the results.
.PHONY: check-ffmpeg-series
check-ffmpeg-series: $(CORE_PC) $(FF_FLOATADM_DEPS) $(NV_PREFIX)/.installed | $(FF_FLOATADM_ORDER)
	scripts/ffmpeg-plain-check.sh --full $(FFMPEG_VERSION) $(FF_PC_DIRS) $(BUILD)/plain-$(FFMPEG_VERSION) $(FF_CACHE)
	scripts/ffmpeg-plain-check.sh --full --extras $(FFMPEG_VERSION) $(FF_PC_DIRS) $(BUILD)/plain-$(FFMPEG_VERSION)-extras $(FF_CACHE)
