# CUDA benchmarks (included when HAVE_CUDA=yes, after tests/cuda/module.mk):
#   build/bench/cuda_bench        CUDA-event timing per frame and per stage; `make cuda-bench`
#   build/bench/cuda_host_bench   frames from host memory (arrays copied or pinned in place,
#                                 files read into pinned buffers) against the CPU path and the
#                                 copy floor, wall and CPU time a pair
# SPDX-License-Identifier: LGPL-2.1-or-later

CUDA_BENCH_BIN := $(BUILD)/bench/cuda_bench
CUDA_BENCH_OBJ := $(BUILD)/obj/bench/cuda/bench_cuda.o
CUDA_HOST_BENCH_BIN := $(BUILD)/bench/cuda_host_bench
CUDA_HOST_BENCH_OBJ := $(BUILD)/obj/bench/cuda/bench_host_paths.o

.PHONY: cuda-bench

all: $(CUDA_BENCH_BIN) $(CUDA_HOST_BENCH_BIN)

$(CUDA_BENCH_OBJ) $(CUDA_HOST_BENCH_OBJ): private CXXFLAGS_ALL += $(CUDA_TOOL_CXXFLAGS)
$(CUDA_BENCH_OBJ) $(CUDA_HOST_BENCH_OBJ): $(CORE_HEADER_OUT) $(CUDA_HEADER_OUT)

$(CUDA_BENCH_BIN): $(CUDA_BENCH_OBJ) $(CUDA_TOOL_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $< $(CUDA_SUPPORT_OBJ) $(CUDA_TOOL_LINK) -o $@

$(CUDA_HOST_BENCH_BIN): $(CUDA_HOST_BENCH_OBJ) $(CUDA_TOOL_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $< $(CUDA_SUPPORT_OBJ) $(CUDA_TOOL_LINK) -o $@

cuda-bench: $(CUDA_BENCH_BIN)
	$(CUDA_BENCH_BIN)

-include $(CUDA_BENCH_OBJ:.o=.d) $(CUDA_HOST_BENCH_OBJ:.o=.d)
