# Unit tests (GoogleTest): every tests/unit/*.cpp in one binary, run by `make check-unit`.
# SPDX-License-Identifier: LGPL-2.1-or-later
UNIT_SRCS := $(wildcard tests/unit/*.cpp)
UNIT_OBJS := $(UNIT_SRCS:%.cpp=$(BUILD)/obj/%.o)
UNIT_BIN := $(BUILD)/tests/unit_tests
# The CUDA backend's models of the host's division and powf, and its host side of frames
# from host memory, are host code: tested with or without a CUDA build.
UNIT_DEVICE_MODEL_OBJS := $(BUILD)/obj/src/adm_cuda/adm_rcp_model.o \
                          $(BUILD)/obj/src/adm_cuda/adm_powf_model.o \
                          $(BUILD)/obj/src/adm_cuda/adm_cuda_host.o

$(UNIT_BIN): $(UNIT_OBJS) $(UNIT_DEVICE_MODEL_OBJS) $(TESTSUPPORT_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(UNIT_OBJS) $(UNIT_DEVICE_MODEL_OBJS) $(TESTSUPPORT_LIB) $(CORE_LIB) \
	    $(LDFLAGS_ALL) -lgtest_main -lgtest -o $@

$(UNIT_OBJS): private CXXFLAGS_ALL += -I$(BUILD)/include -Isrc/adm_cuda $(TESTSUPPORT_CXXFLAGS)
$(UNIT_OBJS): $(CORE_HEADER_OUT)
-include $(UNIT_OBJS:.o=.d)

# From the source tree: the SIMD test reads tests/corpus/golden.json's option sets.
check-unit: $(UNIT_BIN)
	$(UNIT_BIN)
	@# glibc's SSE2 powf as well, where the processor runs the FMA build (the tunable picks it).
	GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA $(UNIT_BIN) \
	    --gtest_filter='PowfModel.ProbeOnThisHost:PowfModel.MatchesHostPowfBitForBit'
