# CUDA tests (included when HAVE_CUDA=yes, after src/adm_cuda/module.mk):
#   build/tests/cuda_parity     CPU vs CUDA (0 bits) and CPU vs golden; skips cleanly
#                               where no CUDA device exists
#   build/tests/cuda_map        CPU vs CUDA maps (every block's sums and loss, 0 bits) and
#                               CUDA scores with a map vs without; skips without a device
#   build/tests/cuda_host       frames from host memory (copied, in place, read from files
#                               into pinned buffers) at every depth, bit for bit the CPU's;
#                               the API's refusals; waiting sleeps; skips without a device
#   build/tests/cuda_robust     injected device out-of-memory (FLOAT_ADM_CUDA_MEMORY_LIMIT,
#                               a hook compiled into the tests' copy of the backend) and,
#                               with --long-run N, memory growth over N frames
#   build/tests/cuda_no_driver  no driver, a library that is not one, the toolkit's stub:
#                               a clean error that names the cause (FLOAT_ADM_CUDA_DRIVER,
#                               the tests' hook); runs on any machine
#   tests/cuda/test_no_cudart.sh  the libraries link no CUDA library and carry no CUDA
#                               runtime code
#   tests/cuda/test_ptx_barriers.sh  clang's PTX: the row sums' "last block" flag is read
#                               after the barrier that follows its store
# None of them links a CUDA library: they reach the driver through the backend's loader.
# SPDX-License-Identifier: LGPL-2.1-or-later

CUDA_PARITY_BIN := $(BUILD)/tests/cuda_parity
CUDA_ROBUST_BIN := $(BUILD)/tests/cuda_robust
CUDA_MAP_BIN := $(BUILD)/tests/cuda_map
CUDA_HOST_BIN := $(BUILD)/tests/cuda_host
CUDA_NO_DRIVER_BIN := $(BUILD)/tests/cuda_no_driver
CUDA_SUPPORT_OBJ := $(BUILD)/obj/tests/cuda/cuda_support.o
CUDA_TEST_OBJS := $(BUILD)/obj/tests/cuda/test_cuda_parity.o $(BUILD)/obj/tests/cuda/test_cuda_robust.o \
                  $(BUILD)/obj/tests/cuda/test_cuda_map.o $(BUILD)/obj/tests/cuda/test_cuda_host.o \
                  $(BUILD)/obj/tests/cuda/test_cuda_no_driver.o $(CUDA_SUPPORT_OBJ)
# How the CUDA test and benchmark programs compile and link.
CUDA_TOOL_CXXFLAGS := -I$(BUILD)/include -Isrc/adm_cuda -Itests/cuda $(TESTSUPPORT_CXXFLAGS) \
                      $(COMMON_CXXFLAGS)
CUDA_TOOL_LINK = $(TESTSUPPORT_LIB) $(COMMON_OBJS) $(CUDA_LIB) $(CORE_LIB) $(LDFLAGS_ALL) $(CUDA_LIBS)
CUDA_TOOL_DEPS = $(CUDA_SUPPORT_OBJ) $(TESTSUPPORT_LIB) $(COMMON_OBJS) $(CUDA_LIB) $(CORE_LIB)

.PHONY: check-cuda

all: $(CUDA_PARITY_BIN) $(CUDA_ROBUST_BIN) $(CUDA_NO_DRIVER_BIN) $(CUDA_MAP_BIN) $(CUDA_HOST_BIN)
check: check-cuda

$(CUDA_TEST_OBJS): private CXXFLAGS_ALL += $(CUDA_TOOL_CXXFLAGS)
$(CUDA_TEST_OBJS): $(CORE_HEADER_OUT) $(CUDA_HEADER_OUT)

$(CUDA_PARITY_BIN): $(BUILD)/obj/tests/cuda/test_cuda_parity.o $(CUDA_TOOL_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $< $(CUDA_SUPPORT_OBJ) $(CUDA_TOOL_LINK) -o $@

$(CUDA_MAP_BIN): $(BUILD)/obj/tests/cuda/test_cuda_map.o $(CUDA_TOOL_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $< $(CUDA_SUPPORT_OBJ) $(CUDA_TOOL_LINK) -o $@

$(CUDA_HOST_BIN): $(BUILD)/obj/tests/cuda/test_cuda_host.o $(CUDA_TOOL_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $< $(CUDA_SUPPORT_OBJ) $(CUDA_TOOL_LINK) -o $@

# The backend's host code built with its test hooks (FLOAT_ADM_CUDA_MEMORY_LIMIT,
# FLOAT_ADM_CUDA_DRIVER), which the library build leaves out.
CUDA_HOOKS_OBJS := $(BUILD)/obj/tests/cuda/adm_cuda_context_hooks.o \
                   $(BUILD)/obj/tests/cuda/adm_cuda_driver_hooks.o
CUDA_HOOKED_LIB_OBJS := $(CUDA_HOOKS_OBJS) \
                        $(filter-out %/adm_cuda_context.o %/adm_cuda_driver.o,$(CUDA_LIB_OBJS))
$(CUDA_HOOKS_OBJS): private CXXFLAGS_ALL += -Isrc/adm_cuda -DFLOAT_ADM_TEST_HOOKS
$(BUILD)/obj/tests/cuda/%_hooks.o: src/adm_cuda/%.cpp $(CORE_HEADER_OUT) $(CUDA_HEADER_OUT)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) -Iinclude -Isrc/adm_core -MMD -MP -c $< -o $@

$(CUDA_ROBUST_BIN): $(BUILD)/obj/tests/cuda/test_cuda_robust.o $(CUDA_HOOKED_LIB_OBJS) \
                    $(CUDA_SUPPORT_OBJ) $(TESTSUPPORT_LIB) $(COMMON_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $< $(CUDA_SUPPORT_OBJ) $(TESTSUPPORT_LIB) $(COMMON_OBJS) \
	    $(CUDA_HOOKED_LIB_OBJS) $(CORE_LIB) $(LDFLAGS_ALL) $(CUDA_LIBS) -o $@

$(CUDA_NO_DRIVER_BIN): $(BUILD)/obj/tests/cuda/test_cuda_no_driver.o $(CUDA_HOOKED_LIB_OBJS) \
                       $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $< $(CUDA_HOOKED_LIB_OBJS) $(CORE_LIB) $(LDFLAGS_ALL) $(CUDA_LIBS) -o $@

# The toolkit's stub driver, where a toolkit is installed: every entry point, and a
# cuInit that fails.
CUDA_STUB_DRIVER := $(firstword $(wildcard /usr/local/cuda/lib64/stubs/libcuda.so \
                      /usr/lib/x86_64-linux-gnu/stubs/libcuda.so))

# Without a CUDA device the GPU tests say so and pass (CI has no GPU).
check-cuda: $(CUDA_PARITY_BIN) $(CUDA_ROBUST_BIN) $(CUDA_NO_DRIVER_BIN) $(CUDA_MAP_BIN) $(CUDA_HOST_BIN) \
            $(CUDA_SHLIB) $(CUDA_LIB) \
            $(CUDA_IMAGE)
	FLOAT_ADM_CUDA_DRIVER=/nonexistent/libcuda.so.1 $(CUDA_NO_DRIVER_BIN) \
	    'could not be loaded (/nonexistent/libcuda.so.1)'
	FLOAT_ADM_CUDA_DRIVER=libm.so.6 $(CUDA_NO_DRIVER_BIN) 'libm.so.6 has no cuInit: not a CUDA driver'
	$(if $(CUDA_STUB_DRIVER),FLOAT_ADM_CUDA_DRIVER=$(CUDA_STUB_DRIVER) $(CUDA_NO_DRIVER_BIN) \
	    'cuInit failed: CUDA_ERROR_STUB_LIBRARY')
	sh tests/cuda/test_no_cudart.sh $(CUDA_SHLIB) $(CUDA_LIB)
	$(if $(filter nvcc,$(CUDA_KERNELS)),,sh tests/cuda/test_ptx_barriers.sh $(CUDA_IMAGE))
	$(CUDA_PARITY_BIN) --corpus tests/corpus --quick
	$(CUDA_MAP_BIN) --corpus tests/corpus
	$(CUDA_HOST_BIN) --corpus tests/corpus --quick
	$(CUDA_ROBUST_BIN)

# adm_cuda_driver.h's constants and CUDA_MEMCPY2D against the toolkit's cuda.h, where a
# toolkit is installed (a compile-time check; the backend itself never includes cuda.h).
CUDA_TOOLKIT_INC := $(firstword $(wildcard /usr/local/cuda/include/cuda.h $(abspath \
                      $(dir $(shell command -v $(NVCC) 2>/dev/null))..)/include/cuda.h))
ifneq ($(CUDA_TOOLKIT_INC),)
CUDA_ABI_BIN := $(BUILD)/tests/cuda_driver_abi
all: $(CUDA_ABI_BIN)
check-cuda: cuda-driver-abi
.PHONY: cuda-driver-abi
$(CUDA_ABI_BIN): tests/cuda/test_cuda_driver_abi.cpp src/adm_cuda/adm_cuda_driver.h
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) -Isrc/adm_cuda -I$(dir $(CUDA_TOOLKIT_INC)) $< -o $@
cuda-driver-abi: $(CUDA_ABI_BIN)
	$(CUDA_ABI_BIN)
endif

# The device powf model against the host's powf on every non-negative float (needs a GPU
# and the CUDA toolkit: built by nvcc with its runtime; a test program, never installed;
# not part of check-cuda: a minute of host time on 16 cores).
CUDART_STATIC := $(wildcard $(abspath $(dir $(shell command -v $(NVCC) 2>/dev/null))..)/lib64/libcudart_static.a)
ifneq ($(CUDART_STATIC),)
CUDA_POWF_BIN := $(BUILD)/tests/cuda_powf_check
CUDA_POWF_OBJ := $(BUILD)/obj/tests/cuda/test_cuda_powf.o
all: $(CUDA_POWF_BIN)
$(CUDA_POWF_OBJ): tests/cuda/test_cuda_powf.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -MMD -MP -c $< -o $@
$(CUDA_POWF_BIN): $(CUDA_POWF_OBJ) $(BUILD)/obj/src/adm_cuda/adm_powf_model.o $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $^ $(CUDART_STATIC) $(LDFLAGS_ALL) -ldl -lrt -o $@
-include $(CUDA_POWF_OBJ:.o=.d)
endif

-include $(CUDA_TEST_OBJS:.o=.d) $(CUDA_HOOKS_OBJS:.o=.d)
