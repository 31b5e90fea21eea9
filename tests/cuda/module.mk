# CUDA tests (included when HAVE_CUDA=yes, after src/adm_cuda/module.mk):
#   build/tests/cuda_parity   CPU vs CUDA (0 bits) and CPU vs golden; skips cleanly
#                             where no CUDA device exists
#   build/tests/cuda_robust   injected device out-of-memory (FLOAT_ADM_CUDA_MEMORY_LIMIT,
#                             a hook compiled into this test alone) and, with
#                             --long-run N, memory growth over N frames
# SPDX-License-Identifier: LGPL-2.1-or-later

CUDA_PARITY_BIN := $(BUILD)/tests/cuda_parity
CUDA_ROBUST_BIN := $(BUILD)/tests/cuda_robust
CUDA_SUPPORT_OBJ := $(BUILD)/obj/tests/cuda/cuda_support.o
CUDA_TEST_OBJS := $(BUILD)/obj/tests/cuda/test_cuda_parity.o $(BUILD)/obj/tests/cuda/test_cuda_robust.o \
                  $(CUDA_SUPPORT_OBJ)
# How the CUDA test and benchmark programs compile and link.
CUDA_TOOL_CXXFLAGS := -I$(BUILD)/include -I$(CUDA_INC) -Itests/cuda $(TESTSUPPORT_CXXFLAGS) \
                      $(COMMON_CXXFLAGS)
CUDA_TOOL_LINK = $(TESTSUPPORT_LIB) $(COMMON_OBJS) $(CUDA_LIB) $(CORE_LIB) $(LDFLAGS_ALL) $(CUDA_LIBS)
CUDA_TOOL_DEPS = $(CUDA_SUPPORT_OBJ) $(TESTSUPPORT_LIB) $(COMMON_OBJS) $(CUDA_LIB) $(CORE_LIB)

.PHONY: check-cuda

all: $(CUDA_PARITY_BIN) $(CUDA_ROBUST_BIN)
check: check-cuda

$(CUDA_TEST_OBJS): CXXFLAGS_ALL += $(CUDA_TOOL_CXXFLAGS)
$(CUDA_TEST_OBJS): $(CORE_HEADER_OUT) $(CUDA_HEADER_OUT)

$(CUDA_PARITY_BIN): $(BUILD)/obj/tests/cuda/test_cuda_parity.o $(CUDA_TOOL_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $< $(CUDA_SUPPORT_OBJ) $(CUDA_TOOL_LINK) -o $@

# cuda_robust links the backend's host code built with its test hooks
# (FLOAT_ADM_CUDA_MEMORY_LIMIT), which the library build leaves out.
CUDA_HOOKS_OBJ := $(BUILD)/obj/tests/cuda/float_adm_cuda_hooks.o
$(CUDA_HOOKS_OBJ): CXXFLAGS_ALL += -I$(CUDA_INC) -Isrc/adm_cuda -DFLOAT_ADM_TEST_HOOKS
$(CUDA_HOOKS_OBJ): src/adm_cuda/float_adm_cuda.cpp $(CORE_HEADER_OUT) $(CUDA_HEADER_OUT)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) -Iinclude -Isrc/adm_core -MMD -MP -c $< -o $@

$(CUDA_ROBUST_BIN): $(BUILD)/obj/tests/cuda/test_cuda_robust.o $(CUDA_HOOKS_OBJ) $(CUDA_KERNEL_OBJ) \
                    $(CUDA_SUPPORT_OBJ) $(TESTSUPPORT_LIB) $(COMMON_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $< $(CUDA_SUPPORT_OBJ) $(TESTSUPPORT_LIB) $(COMMON_OBJS) \
	    $(CUDA_HOOKS_OBJ) $(CUDA_KERNEL_OBJ) $(CUDART_STATIC) $(CORE_LIB) $(LDFLAGS_ALL) \
	    $(CUDA_LIBS) -o $@

# Without a CUDA device these tests say so and pass (CI has nvcc, no GPU).
check-cuda: $(CUDA_PARITY_BIN) $(CUDA_ROBUST_BIN)
	$(CUDA_PARITY_BIN) --corpus tests/corpus --quick
	$(CUDA_ROBUST_BIN)

# The device powf model against the host's powf on every non-negative float (needs a GPU;
# not part of check-cuda: a minute of host time on 16 cores).
CUDA_POWF_BIN := $(BUILD)/tests/cuda_powf_check
CUDA_POWF_OBJ := $(BUILD)/obj/tests/cuda/test_cuda_powf.o
all: $(CUDA_POWF_BIN)
$(CUDA_POWF_OBJ): tests/cuda/test_cuda_powf.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -MMD -MP -c $< -o $@
$(CUDA_POWF_BIN): $(CUDA_POWF_OBJ) $(CUDA_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $< $(CUDA_LIB) $(CORE_LIB) $(LDFLAGS_ALL) $(CUDA_LIBS) -o $@

-include $(CUDA_TEST_OBJS:.o=.d) $(CUDA_POWF_OBJ:.o=.d) $(CUDA_HOOKS_OBJ:.o=.d)
