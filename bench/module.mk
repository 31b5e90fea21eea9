# Benchmark (Google Benchmark): the core's time per frame.  `make bench` builds and runs
# it; BENCH_ARGS passes options such as --benchmark_filter=1920x1080.
# SPDX-License-Identifier: LGPL-2.1-or-later
BENCH_SRCS := $(wildcard bench/*.cpp)
BENCH_OBJS := $(BENCH_SRCS:%.cpp=$(BUILD)/obj/%.o)
BENCH_BIN := $(BUILD)/bench/float_adm_bench
BENCH_ARGS ?=

$(BENCH_BIN): $(BENCH_OBJS) $(TESTSUPPORT_LIB) $(COMMON_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(BENCH_OBJS) $(TESTSUPPORT_LIB) $(COMMON_OBJS) $(CORE_LIB) $(LDFLAGS_ALL) \
	    -lbenchmark -o $@

# Frames from tests/support's generator, threads on src/common's pool.
$(BENCH_OBJS): private CXXFLAGS_ALL += -I$(BUILD)/include $(TESTSUPPORT_CXXFLAGS) $(COMMON_CXXFLAGS)
$(BENCH_OBJS): $(CORE_HEADER_OUT)
-include $(BENCH_OBJS:.o=.d)

bench: $(BENCH_BIN)
	$(BENCH_BIN) $(BENCH_ARGS)
