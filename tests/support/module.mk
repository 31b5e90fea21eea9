# tests/support: what the tests and benchmarks share, one static library: the JSON
# reader, golden.json and the fixture loader, the frame geometry, the content generator.
# SPDX-License-Identifier: LGPL-2.1-or-later
TESTSUPPORT_SRCS := $(wildcard tests/support/*.cpp)
TESTSUPPORT_OBJS := $(TESTSUPPORT_SRCS:%.cpp=$(BUILD)/obj/%.o)
TESTSUPPORT_LIB := $(BUILD)/tests/libtestsupport.a
# What a user of tests/support compiles with.
TESTSUPPORT_CXXFLAGS := -Itests/support

$(TESTSUPPORT_LIB): $(TESTSUPPORT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(TESTSUPPORT_OBJS): private CXXFLAGS_ALL += -I$(BUILD)/include
$(TESTSUPPORT_OBJS): $(CORE_HEADER_OUT)
-include $(TESTSUPPORT_OBJS:.o=.d)
