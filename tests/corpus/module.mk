# The golden corpus test (GoogleTest): every case of golden.json through the C API and
# float_adm_score, run by `make check-corpus` at every dispatch level.
# SPDX-License-Identifier: LGPL-2.1-or-later

# The fixtures, decompressed into $(BUILD)/corpus at test time.
CORPUS_XZ := $(wildcard tests/corpus/*.yuv.xz)
CORPUS_DIR := $(BUILD)/corpus
CORPUS_YUV := $(CORPUS_XZ:tests/corpus/%.xz=$(CORPUS_DIR)/%)
CORPUS_TEST := $(BUILD)/tests/corpus_test
CORPUS_TEST_OBJ := $(BUILD)/obj/tests/corpus/test_corpus.o

$(CORPUS_DIR)/%.yuv: tests/corpus/%.yuv.xz
	@mkdir -p $(dir $@)
	xz -dc $< > $@.tmp && mv $@.tmp $@

$(CORPUS_DIR)/golden.json: tests/corpus/golden.json $(wildcard tests/corpus/hosts/*.json)
	@mkdir -p $(dir $@)/hosts
	cp tests/corpus/hosts/*.json $(dir $@)/hosts/
	cp $< $@

$(CORPUS_TEST_OBJ): private CXXFLAGS_ALL += -I$(BUILD)/include $(TESTSUPPORT_CXXFLAGS)
$(CORPUS_TEST_OBJ): $(CORE_HEADER_OUT)
$(CORPUS_TEST): $(CORPUS_TEST_OBJ) $(TESTSUPPORT_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $^ $(LDFLAGS_ALL) -lgtest -lgtest_main -o $@

# At every dispatch level the library names (float_adm_score --version lists them; a
# level the processor lacks falls back to the best below it), or at SIMD_LEVELS alone.
SIMD_LEVELS ?=
check-corpus: $(CORPUS_TEST) $(CLI_BIN) $(CORPUS_YUV) $(CORPUS_DIR)/golden.json
	levels='$(SIMD_LEVELS)'; \
	[ -n "$$levels" ] || levels=$$($(CLI_BIN) --version | sed -n 's/^simd levels: \([^(]*\) (.*/\1/p'); \
	[ -n "$$levels" ] || { echo "check-corpus: $(CLI_BIN) --version names no SIMD level"; exit 1; }; \
	for level in $$levels; do \
	    echo "== golden corpus, FLOAT_ADM_SIMD=$$level"; \
	    FLOAT_ADM_SIMD=$$level FLOAT_ADM_CORPUS_DIR=$(CORPUS_DIR) FLOAT_ADM_SCORE=$(CLI_BIN) \
	        $(CORPUS_TEST) || exit 1; \
	done
-include $(CORPUS_TEST_OBJ:.o=.d)
