# Benchmark (Google Benchmark): the core's time per frame.  `make bench` builds and runs
# it; BENCH_ARGS passes options such as --benchmark_filter=1920x1080.
# SPDX-License-Identifier: LGPL-2.1-or-later
BENCH_SRCS := $(wildcard bench/*.cpp)
BENCH_OBJS := $(BENCH_SRCS:%.cpp=$(BUILD)/obj/%.o)
# The CLI's thread pool is the executor of the threaded runs.
BENCH_POOL_OBJ := $(BUILD)/obj/src/cli/thread_pool.o
BENCH_BIN := $(BUILD)/bench/float_adm_bench
BENCH_ARGS ?=

$(BENCH_BIN): $(BENCH_OBJS) $(BENCH_POOL_OBJ) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(BENCH_OBJS) $(BENCH_POOL_OBJ) $(CORE_LIB) $(LDFLAGS_ALL) -lbenchmark -o $@

$(BENCH_OBJS): CXXFLAGS_ALL += -I$(BUILD)/include -Isrc/cli
$(BENCH_OBJS) $(BENCH_POOL_OBJ): $(CORE_HEADER_OUT)
-include $(BENCH_OBJS:.o=.d)

bench: $(BENCH_BIN)
	$(BENCH_BIN) $(BENCH_ARGS)
