# Hardening runs that are too slow or too heavy for `make check`:
#   valgrind-check         memcheck over a short filter run: 0 errors, 0 bytes definitely lost
#   long-run               LONG_FRAMES (20000) frames of 1920x1080 through the filter, peak RSS
#                          at 1000 and at LONG_FRAMES frames (GNU time); figures in docs/robustness.md
#   check-sanitize-ffmpeg  FFmpeg and the core built with ASan + UBSan in $(BUILD)/sanitize-ffmpeg,
#                          running the FATE float_adm tests and check-robustness
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: valgrind-check long-run check-sanitize-ffmpeg

VALGRIND_DIR := $(BUILD)/valgrind
VALGRIND_SRC := -f lavfi -i testsrc2=s=176x144:d=0.4 -f lavfi -i testsrc2=s=176x144:d=0.4
# scored: two chroma layouts (nv12 against yuv420p), every output, a JSON log,
# two slice threads.  failed: the main input changes size after three frames,
# so the filter stops with an error: its failure path must free all too.
VALGRIND_SCORED := [0]format=nv12[d];[d][1]float_adm=debug=1:log_path=$(VALGRIND_DIR)/scores.json
VALGRIND_FAILED := [0]scale=w=if(lt(n\,3)\,176\,160):h=144:eval=frame[d];[d][1]float_adm

# valgrind's own status is 99; ffmpeg's error in the failing run is expected.
valgrind-check: $(BUILD)/bin/ffmpeg
	@mkdir -p $(VALGRIND_DIR)
	for run in scored failed; do \
	    if [ $$run = scored ]; then graph='$(VALGRIND_SCORED)'; else graph='$(VALGRIND_FAILED)'; fi; \
	    valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
	        --log-file=$(VALGRIND_DIR)/$$run.log \
	        $(BUILD)/bin/ffmpeg -hide_banner -nostdin -loglevel error -y $(VALGRIND_SRC) \
	        -lavfi "$$graph" -filter_threads 2 -f null -; \
	    rc=$$?; \
	    if [ $$rc = 99 ] || { [ $$run = scored ] && [ $$rc != 0 ]; }; then \
	        cat $(VALGRIND_DIR)/$$run.log; exit 1; \
	    fi; \
	    echo "valgrind, $$run run (ffmpeg exit $$rc):"; \
	    grep -E 'ERROR SUMMARY|definitely lost|in use at exit' $(VALGRIND_DIR)/$$run.log; \
	done

LONG_FRAMES ?= 20000
long-run: $(BUILD)/bin/ffmpeg
	sh tests/robustness/test_long_run.sh $(BUILD)/bin/ffmpeg 1000 $(LONG_FRAMES)

# The core (SANITIZE=1) and FFmpeg with the filter, both under ASan + UBSan, in
# their own tree, from a copy of the normal build's patched FFmpeg source (a
# copy: the normal build may re-prepare its tree meanwhile).  Any
# sanitizer report ends the program with status 134, which the tests count as
# a crash.  No CUDA hwcontext here.
SAN_FF_DIR   := $(BUILD)/sanitize-ffmpeg
SAN_FF_SRC   := $(SAN_FF_DIR)/src
SAN_FF_OBJ   := $(SAN_FF_DIR)/ffmpeg
SAN_FF_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
SAN_FF_ENV   := ASAN_OPTIONS=exitcode=134:detect_leaks=1 \
                UBSAN_OPTIONS=halt_on_error=1:exitcode=134:print_stacktrace=1

$(SAN_FF_DIR)/.src: $(FF_DIR)/.synced
	rm -rf $(SAN_FF_SRC) && mkdir -p $(SAN_FF_DIR) && cp -a $(FF_SRC) $(SAN_FF_SRC)
	touch $@

check-sanitize-ffmpeg: $(SAN_FF_DIR)/.src fate-samples
	$(MAKE) BUILD=$(SAN_FF_DIR) SANITIZE=1 $(SAN_FF_DIR)/lib/libfloatadm.a \
	    $(SAN_FF_DIR)/lib/pkgconfig/floatadm.pc $(SAN_FF_DIR)/include/float_adm.h \
	    $(SAN_FF_DIR)/bin/float_adm_score
	[ -f $(SAN_FF_OBJ)/ffbuild/config.mak ] && [ $(SAN_FF_OBJ)/ffbuild/config.mak -nt $(SAN_FF_DIR)/.src ] || \
	    scripts/ffmpeg-configure.sh $(SAN_FF_SRC) $(SAN_FF_OBJ) $(abspath $(SAN_FF_DIR))/lib/pkgconfig \
	        --cc="$(CC)" --cxx="$(CXX)" --extra-cflags="$(SAN_FF_FLAGS)" \
	        --extra-cxxflags="$(SAN_FF_FLAGS)" --extra-ldflags="$(SAN_FF_FLAGS)"
	for prog in ffmpeg ffprobe; do \
	    [ $(SAN_FF_DIR)/lib/libfloatadm.a -nt $(SAN_FF_OBJ)/$${prog}_g ] && rm -f $(SAN_FF_OBJ)/$${prog}_g $(SAN_FF_OBJ)/$$prog; \
	done; true
	$(MAKE) -C $(SAN_FF_OBJ) $(FF_JOBS) ffmpeg ffprobe
	$(SAN_FF_ENV) $(MAKE) -C $(SAN_FF_OBJ) $(FF_JOBS) $(FF_SERIES_FATE) fate-float-adm-corpus SAMPLES=$(abspath $(FATE_SAMPLES))
	$(SAN_FF_ENV) sh tests/robustness/test_ffmpeg.sh $(SAN_FF_OBJ)/ffmpeg
	$(SAN_FF_ENV) MEMORY_LIMIT_KIB=unlimited sh tests/robustness/test_cli.sh $(SAN_FF_DIR)/bin/float_adm_score
