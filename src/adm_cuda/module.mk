# The CUDA backend (included by the top Makefile when HAVE_CUDA=yes):
#   build/lib/libfloatadm_cuda.a   kernels + host API + the static CUDA runtime, one
#                                  relocatable object; link it before libfloatadm.a
#                                  with -ldl -lrt -lpthread.  Nothing is needed at load
#                                  time: the runtime finds the driver when a context
#                                  is created.
#   build/lib/pkgconfig/floatadm_cuda.pc   for FFmpeg's configure (the filter's CUDA path)
#   build/lib/shared/libfloatadm_cuda.so.VERSION   the same as a shared library: exports
#                                  float_adm_cuda_* only and carries the CUDA runtime and
#                                  the core code it uses, hidden; programs take the
#                                  core's C API from libfloatadm.so (the .pc requires it)
# Its tests and benchmark: tests/cuda/module.mk, bench/cuda/module.mk.
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
              $(CUDA_GENCODE) -Xcompiler -Wall,-Wextra,-fPIC -Iinclude -Isrc/adm_core -Isrc/adm_cuda
CUDA_LIBS := -ldl -lrt -lpthread

CUDA_KERNEL_OBJ := $(BUILD)/obj/src/adm_cuda/adm_cuda_kernels.o
CUDA_HOST_OBJ := $(BUILD)/obj/src/adm_cuda/float_adm_cuda.o
CUDA_LIB := $(BUILD)/lib/libfloatadm_cuda.a
CUDA_HEADER_OUT := $(BUILD)/include/float_adm_cuda.h
CUDA_PC := $(BUILD)/lib/pkgconfig/floatadm_cuda.pc
CUDA_SONAME := libfloatadm_cuda.so.$(CORE_SOVERSION)
CUDA_SHLIB := $(CORE_SHLIB_DIR)/libfloatadm_cuda.so.$(CORE_VERSION)
CUDA_SHLIB_LINKS := $(CORE_SHLIB_DIR)/$(CUDA_SONAME) $(CORE_SHLIB_DIR)/libfloatadm_cuda.so

all: $(CUDA_LIB) $(CUDA_HEADER_OUT) $(CUDA_PC) $(CUDA_SHLIB) $(CUDA_SHLIB_LINKS)

$(CUDA_KERNEL_OBJ): src/adm_cuda/adm_cuda_kernels.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -MMD -MP -c $< -o $@

$(CUDA_HOST_OBJ): CXXFLAGS_ALL += -I$(CUDA_INC) -Isrc/adm_cuda -fvisibility=hidden

# One object: our code plus the whole static runtime, so users need no CUDA library.
$(CUDA_LIB): $(CUDA_KERNEL_OBJ) $(CUDA_HOST_OBJ)
	@mkdir -p $(dir $@) $(BUILD)/obj/src/adm_cuda
	$(LD) -r -o $(BUILD)/obj/src/adm_cuda/floatadm_cuda_all.o $^ \
	  --whole-archive $(CUDART_STATIC) --no-whole-archive
	rm -f $@ && ar rcs $@ $(BUILD)/obj/src/adm_cuda/floatadm_cuda_all.o

# The core's internals it shares with the CPU path come from the archive: libfloatadm.so
# exports only the C API.
$(CUDA_SHLIB): $(CUDA_KERNEL_OBJ) $(CUDA_HOST_OBJ) $(CORE_LIB) src/adm_cuda/libfloatadm_cuda.map
	@mkdir -p $(dir $@)
	$(CXX) -shared $(CXXFLAGS_ALL) -Wl,-soname,$(CUDA_SONAME) \
	  -Wl,--version-script=src/adm_cuda/libfloatadm_cuda.map -Wl,--no-undefined -Wl,--as-needed \
	  $(CUDA_KERNEL_OBJ) $(CUDA_HOST_OBJ) $(CORE_LIB) $(CUDART_STATIC) $(LDFLAGS_ALL) $(CUDA_LIBS) \
	  -o $@

$(CUDA_SHLIB_LINKS): $(CUDA_SHLIB)
	ln -sf $(notdir $<) $@

$(CUDA_HEADER_OUT): include/float_adm_cuda.h
	@mkdir -p $(dir $@)
	cp $< $@

# FFmpeg's configure finds the backend through it (HAVE_LIBFLOATADM_CUDA).
$(CUDA_PC): src/adm_cuda/module.mk config.mak
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(ABS_BUILD)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: floatadm_cuda' 'Description: float ADM on NVIDIA GPUs, bit-exact with floatadm' \
	  'Version: $(CORE_VERSION)' 'Requires: floatadm' 'Libs: -L$${libdir} -lfloatadm_cuda' \
	  'Libs.private: $(CUDA_LIBS)' 'Cflags: -I$${includedir}' > $@

-include $(CUDA_KERNEL_OBJ:.o=.d) $(CUDA_HOST_OBJ:.o=.d)
