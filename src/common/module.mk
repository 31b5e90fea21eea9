# Code the programs share but the library does not hold: the thread pool that runs the
# core's jobs for float_adm_score, the benchmarks and the CUDA tests.
# SPDX-License-Identifier: LGPL-2.1-or-later
COMMON_SRCS := $(wildcard src/common/*.cpp)
COMMON_OBJS := $(COMMON_SRCS:%.cpp=$(BUILD)/obj/%.o)
# What a user of src/common compiles with.
COMMON_CXXFLAGS := -Isrc/common

$(COMMON_OBJS): CXXFLAGS_ALL += -I$(BUILD)/include
$(COMMON_OBJS): $(CORE_HEADER_OUT)
-include $(COMMON_OBJS:.o=.d)
