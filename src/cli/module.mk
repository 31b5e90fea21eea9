# float_adm_score: scores raw YUV / y4m without FFmpeg.
# SPDX-License-Identifier: LGPL-2.1-or-later
# --backend cuda: cuda_backend.cpp and the CUDA library, where the build has it.
# --scale: scaler.cpp and FFmpeg's libswscale, where configure found it.
CLI_CUDA_SRC := src/cli/cuda_backend.cpp
CLI_SWSCALE_SRC := src/cli/scaler.cpp
CLI_SRCS := $(filter-out $(CLI_CUDA_SRC) $(CLI_SWSCALE_SRC),$(wildcard src/cli/*.cpp))
ifeq ($(HAVE_SWSCALE),yes)
CLI_SRCS += $(CLI_SWSCALE_SRC)
endif
ifeq ($(HAVE_CUDA),yes)
CLI_SRCS += $(CLI_CUDA_SRC)
# Literal paths: src/adm_cuda/module.mk, which names them, is included later.
CLI_CUDA_DEPS := $(BUILD)/lib/libfloatadm_cuda.a $(BUILD)/include/float_adm_cuda.h
endif
CLI_OBJS := $(CLI_SRCS:%.cpp=$(BUILD)/obj/%.o)
CLI_BIN := $(BUILD)/bin/float_adm_score

.PHONY: check-cli

all: $(CLI_BIN)

# The CUDA library (empty without CUDA) goes before the core, as its module.mk says.
$(CLI_BIN): $(CLI_OBJS) $(CORE_LIB) $(CLI_CUDA_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(CLI_OBJS) $(filter %.a,$(CLI_CUDA_DEPS)) \
	  $(CORE_LIB) $(LDFLAGS_ALL) $(if $(CLI_CUDA_DEPS),$(CUDA_LIBS)) \
	  $(if $(filter yes,$(HAVE_SWSCALE)),$(SWSCALE_LIBS)) -o $@

$(CLI_OBJS): private CXXFLAGS_ALL += -I$(BUILD)/include $(COMMON_CXXFLAGS)
# Target-specific flags are private: the libraries' objects keep their own.
$(CLI_OBJS): $(CORE_HEADER_OUT) $(filter %.h,$(CLI_CUDA_DEPS))
# configure decides what is built in (CUDA, libswscale): a new answer rebuilds them.
$(CLI_OBJS) $(CLI_BIN): config.mak
ifeq ($(HAVE_CUDA),yes)
$(CLI_OBJS): private CXXFLAGS_ALL += -DFLOAT_ADM_CLI_CUDA
endif
ifeq ($(HAVE_SWSCALE),yes)
$(CLI_OBJS): private CXXFLAGS_ALL += -DFLOAT_ADM_CLI_SWSCALE $(SWSCALE_CFLAGS)
endif
-include $(CLI_OBJS:.o=.d)

# Error paths, --threads independence, y4m input, and the corpus scores.
check-cli: $(CLI_BIN)
	sh tests/cli/test_cli.sh $(CLI_BIN) tests/corpus

check: check-cli
