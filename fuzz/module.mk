# libFuzzer targets (clang, ASan + UBSan), built in $(BUILD)/fuzz:
#   fuzz_c_api  the core's C API (sizes, strides, depths, options, planes)
#   fuzz_cli    float_adm_score's main: arguments, raw and y4m files
# `make fuzz` runs each for FUZZ_SECONDS from its seed corpus (fuzz/corpus/<target>);
# new inputs go to $(BUILD)/fuzz/corpus/<target>, crashes to $(BUILD)/fuzz/crashes.
# SPDX-License-Identifier: LGPL-2.1-or-later

FUZZ_CXX     ?= clang++
FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CXXFLAGS := -std=c++17 $(WARN_FLAGS) $(SCORE_FLAGS) -O1 -g -pthread $(FUZZ_SAN) \
                 -fsanitize=fuzzer-no-link -Iinclude -Isrc/adm_core -Isrc/common
FUZZ_TARGETS := fuzz_c_api fuzz_cli
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/%)

FUZZ_CORE_OBJS := $(CORE_SRCS:%.cpp=$(FUZZ_DIR)/obj/%.o)
$(FUZZ_CORE_OBJS): private FUZZ_CXXFLAGS += -DFLOAT_ADM_BUILDING_LIBRARY
# The tool without its main, which the target calls as float_adm_score_main, and
# without its CUDA backend and --scale (the fuzzed build is the CPU one, libswscale
# not built with the sanitizers).
FUZZ_CLI_OBJS  := $(filter-out %/main.o,$(patsubst %.cpp,$(FUZZ_DIR)/obj/%.o,$(filter-out $(CLI_CUDA_SRC) $(CLI_SWSCALE_SRC),$(CLI_SRCS)))) \
                  $(COMMON_SRCS:%.cpp=$(FUZZ_DIR)/obj/%.o) \
                  $(FUZZ_DIR)/obj/src/cli/main_as_function.o

.PHONY: fuzz fuzz-build

fuzz-build: $(FUZZ_BINS)

$(FUZZ_DIR)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) $(FUZZ_ARCH_FLAGS) -MMD -MP -c $< -o $@

$(FUZZ_DIR)/obj/src/cli/main_as_function.o: src/cli/main.cpp
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -Dmain=float_adm_score_main -MMD -MP -c $< -o $@

# The vector kernels need their own -m flags, SIMD_FLAGS_<level> of src/adm_core/module.mk.
$(call simd_flags_of,$(FUZZ_DIR)/obj,FUZZ_ARCH_FLAGS,$(FUZZ_CXX))

$(FUZZ_DIR)/fuzz_c_api: $(FUZZ_DIR)/obj/fuzz/fuzz_c_api.o $(FUZZ_CORE_OBJS)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer $^ -o $@

$(FUZZ_DIR)/fuzz_cli: $(FUZZ_DIR)/obj/fuzz/fuzz_cli.o $(FUZZ_CLI_OBJS) $(FUZZ_CORE_OBJS)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer $^ -o $@

# Each target from its seeds plus what earlier runs found; -close_fd_mask=3
# silences the tool's own messages (libFuzzer's and the sanitizers' remain).
# The log keeps the whole run; a crash prints its end and fails the target.
fuzz: $(FUZZ_BINS)
	@mkdir -p $(FUZZ_DIR)/crashes
	@for target in $(FUZZ_TARGETS); do \
	    mkdir -p $(FUZZ_DIR)/corpus/$$target; \
	    echo "fuzz: $$target for $(FUZZ_SECONDS) s (log: $(FUZZ_DIR)/$$target.log)"; \
	    $(FUZZ_DIR)/$$target -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=4096 \
	        -max_len=8192 -close_fd_mask=3 -print_final_stats=1 \
	        -artifact_prefix=$(abspath $(FUZZ_DIR)/crashes)/$$target- \
	        $(abspath $(FUZZ_DIR))/corpus/$$target $(CURDIR)/fuzz/corpus/$$target >$(FUZZ_DIR)/$$target.log 2>&1 \
	        || { tail -n 60 $(FUZZ_DIR)/$$target.log; exit 1; }; \
	    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' $(FUZZ_DIR)/$$target.log; \
	done

-include $(FUZZ_CORE_OBJS:.o=.d) $(FUZZ_CLI_OBJS:.o=.d) $(FUZZ_BINS:%=$(FUZZ_DIR)/obj/fuzz/%.d)
