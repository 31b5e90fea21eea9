# Unit tests (GoogleTest): every tests/unit/*.cpp in one binary, run by `make check-unit`.
# SPDX-License-Identifier: LGPL-2.1-or-later
UNIT_SRCS := $(wildcard tests/unit/*.cpp)
UNIT_OBJS := $(UNIT_SRCS:%.cpp=$(BUILD)/obj/%.o)
UNIT_BIN := $(BUILD)/tests/unit_tests

$(UNIT_BIN): $(UNIT_OBJS) $(TESTSUPPORT_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(UNIT_OBJS) $(TESTSUPPORT_LIB) $(CORE_LIB) $(LDFLAGS_ALL) -lgtest_main -lgtest -o $@

$(UNIT_OBJS): CXXFLAGS_ALL += -I$(BUILD)/include $(TESTSUPPORT_CXXFLAGS)
$(UNIT_OBJS): $(CORE_HEADER_OUT)
-include $(UNIT_OBJS:.o=.d)

# From the source tree: the SIMD test reads tests/corpus/golden.json's option sets.
check-unit: $(UNIT_BIN)
	$(UNIT_BIN)
	@# glibc's SSE2 powf as well, where the processor runs the FMA build (the tunable picks it).
	GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA $(UNIT_BIN) \
	    --gtest_filter='PowfModel.ProbeOnThisHost:PowfModel.MatchesHostPowfBitForBit'
