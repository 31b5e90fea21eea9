# The CUDA backend (included by the top Makefile when HAVE_CUDA=yes):
#   build/lib/libfloatadm_cuda.a   kernels + host API + the static CUDA runtime, one
#                                  relocatable object; link it before libfloatadm.a
#                                  with -ldl -lrt -lpthread.  Nothing is needed at load
#                                  time: the runtime finds the driver when a context
#                                  is created.
#   build/lib/pkgconfig/floatadm_cuda.pc   for FFmpeg's configure (the filter's CUDA path)
#   build/tests/cuda_parity        CPU vs CUDA (0 bits) and CPU vs golden; skips cleanly
#                                  where no CUDA device exists
#   build/tests/cuda_robust        injected device out-of-memory (FLOAT_ADM_CUDA_MEMORY_LIMIT)
#                                  and, with --long-run N, memory growth over N frames
#   build/bench/cuda_bench         CUDA-event timing per frame and per stage
# SPDX-License-Identifier: LGPL-2.1-or-later

CUDA_HOME ?= $(abspath $(dir $(shell command -v $(NVCC) 2>/dev/null || echo /usr/local/cuda/bin/nvcc))..)
CUDA_INC := $(CUDA_HOME)/include
CUDART_STATIC := $(CUDA_HOME)/lib64/libcudart_static.a
# SASS for Turing to Hopper, and PTX for later chips.
CUDA_GENCODE ?= -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
                -gencode arch=compute_86,code=sm_86 -gencode arch=compute_89,code=sm_89 \
                -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
# --fmad=false: no contraction, as the CPU's -ffp-contract=off; IEEE division and sqrt.
NVCC_FLAGS := -std=c++17 -O3 --fmad=false -prec-div=true -prec-sqrt=true -ftz=false \
              $(CUDA_GENCODE) -Xcompiler -Wall,-Wextra,-fPIC -Isrc/adm_core -Isrc/adm_cuda
CUDA_LIBS := -ldl -lrt -lpthread

CUDA_KERNEL_OBJ := $(BUILD)/obj/src/adm_cuda/adm_cuda_kernels.o
CUDA_HOST_OBJ := $(BUILD)/obj/src/adm_cuda/float_adm_cuda.o
CUDA_LIB := $(BUILD)/lib/libfloatadm_cuda.a
CUDA_HEADER_OUT := $(BUILD)/include/float_adm_cuda.h
CUDA_PC := $(BUILD)/lib/pkgconfig/floatadm_cuda.pc
CUDA_PARITY_BIN := $(BUILD)/tests/cuda_parity
CUDA_BENCH_BIN := $(BUILD)/bench/cuda_bench
CUDA_ROBUST_BIN := $(BUILD)/tests/cuda_robust
CUDA_TOOL_OBJS := $(BUILD)/obj/tests/cuda/parity.o $(BUILD)/obj/bench/cuda/cuda_bench.o \
                  $(BUILD)/obj/tests/cuda/cuda_test_util.o $(BUILD)/obj/tests/cuda/robust.o

.PHONY: check-cuda cuda-bench

all: $(CUDA_LIB) $(CUDA_HEADER_OUT) $(CUDA_PC) $(CUDA_PARITY_BIN) $(CUDA_BENCH_BIN) \
     $(CUDA_ROBUST_BIN)
check: check-cuda
install: install-cuda

$(CUDA_KERNEL_OBJ): src/adm_cuda/adm_cuda_kernels.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -MMD -MP -c $< -o $@

$(CUDA_HOST_OBJ) $(CUDA_TOOL_OBJS): CXXFLAGS_ALL += -I$(CUDA_INC) -Isrc/adm_cuda -Itests/cuda -Isrc/cli
$(CUDA_TOOL_OBJS): $(CORE_HEADER_OUT)

# One object: our code plus the whole static runtime, so users need no CUDA library.
$(CUDA_LIB): $(CUDA_KERNEL_OBJ) $(CUDA_HOST_OBJ)
	@mkdir -p $(dir $@) $(BUILD)/obj/src/adm_cuda
	$(LD) -r -o $(BUILD)/obj/src/adm_cuda/floatadm_cuda_all.o $^ \
	  --whole-archive $(CUDART_STATIC) --no-whole-archive
	rm -f $@ && ar rcs $@ $(BUILD)/obj/src/adm_cuda/floatadm_cuda_all.o

$(CUDA_HEADER_OUT): src/adm_cuda/float_adm_cuda.h
	@mkdir -p $(dir $@)
	cp $< $@

# FFmpeg's configure finds the backend through it (HAVE_LIBFLOATADM_CUDA).
$(CUDA_PC): src/adm_cuda/module.mk config.mak
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(ABS_BUILD)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: floatadm_cuda' 'Description: float ADM on NVIDIA GPUs, bit-exact with floatadm' \
	  'Version: 1.0.0' 'Requires: floatadm' 'Libs: -L$${libdir} -lfloatadm_cuda' \
	  'Libs.private: $(CUDA_LIBS)' 'Cflags: -I$${includedir}' > $@

.PHONY: install-cuda
install-cuda: $(CUDA_LIB) $(CUDA_HEADER_OUT) $(CUDA_PC)
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 644 $(CUDA_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(CUDA_HEADER_OUT) $(DESTDIR)$(PREFIX)/include/
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(CUDA_PC) > $(DESTDIR)$(PREFIX)/lib/pkgconfig/floatadm_cuda.pc

CUDA_TOOL_LINK = $(CUDA_LIB) $(CORE_LIB) $(LDFLAGS_ALL) $(CUDA_LIBS)

$(CUDA_PARITY_BIN): $(BUILD)/obj/tests/cuda/parity.o $(BUILD)/obj/tests/cuda/cuda_test_util.o \
                    $(BUILD)/obj/src/cli/thread_pool.o $(CUDA_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(filter %.o,$^) $(CUDA_TOOL_LINK) -o $@

$(CUDA_ROBUST_BIN): $(BUILD)/obj/tests/cuda/robust.o $(BUILD)/obj/tests/cuda/cuda_test_util.o \
                    $(CUDA_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(filter %.o,$^) $(CUDA_TOOL_LINK) -o $@

$(CUDA_BENCH_BIN): $(BUILD)/obj/bench/cuda/cuda_bench.o $(BUILD)/obj/tests/cuda/cuda_test_util.o \
                   $(BUILD)/obj/src/cli/thread_pool.o $(CUDA_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(filter %.o,$^) $(CUDA_TOOL_LINK) -o $@

# Without a CUDA device these tests say so and pass (CI has nvcc, no GPU).
check-cuda: $(CUDA_PARITY_BIN) $(CUDA_ROBUST_BIN)
	$(CUDA_PARITY_BIN) --corpus tests/corpus --quick
	$(CUDA_ROBUST_BIN)

cuda-bench: $(CUDA_BENCH_BIN)
	$(CUDA_BENCH_BIN)

-include $(CUDA_KERNEL_OBJ:.o=.d) $(CUDA_HOST_OBJ:.o=.d) $(CUDA_TOOL_OBJS:.o=.d)
