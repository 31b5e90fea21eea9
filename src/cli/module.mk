# float_adm_score: scores raw YUV / y4m without FFmpeg.
# SPDX-License-Identifier: LGPL-2.1-or-later
CLI_SRCS := $(wildcard src/cli/*.cpp)
CLI_OBJS := $(CLI_SRCS:%.cpp=$(BUILD)/obj/%.o)
CLI_BIN := $(BUILD)/bin/float_adm_score

.PHONY: check-cli

all: $(CLI_BIN)

$(CLI_BIN): $(CLI_OBJS) $(COMMON_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(CLI_OBJS) $(COMMON_OBJS) $(CORE_LIB) $(LDFLAGS_ALL) -o $@

$(CLI_OBJS): CXXFLAGS_ALL += -I$(BUILD)/include $(COMMON_CXXFLAGS)
$(CLI_OBJS): $(CORE_HEADER_OUT)
-include $(CLI_OBJS:.o=.d)

# Error paths, --threads independence, y4m input, and the corpus scores.
check-cli: $(CLI_BIN)
	sh tests/cli/test_cli.sh $(CLI_BIN) tests/corpus

check: check-cli
