# The CUDA backend (included by the top Makefile when HAVE_CUDA=yes):
#   build/lib/libfloatadm_cuda.a   host code + the kernels' image; link it before
#                                  libfloatadm.a with -ldl -lpthread.  No CUDA library is
#                                  linked: the driver (libcuda.so.1) is opened at run time.
#   build/lib/pkgconfig/floatadm_cuda.pc   for FFmpeg's configure (the filter's CUDA path);
#                                  its variable `nonfree` says whether nvcc built the kernels
#   build/lib/shared/libfloatadm_cuda.so.VERSION   the same as a shared library: exports
#                                  float_adm_cuda_* only and carries the core code it uses,
#                                  hidden; programs take the core's C API from
#                                  libfloatadm.so (the .pc requires it)
# The kernels (adm_cuda_kernels.cu) are device code alone.  CUDA_KERNELS=clang (the
# default) compiles them to PTX with clang, without any CUDA header or library, as
# FFmpeg's cuda_llvm does: an LGPL build.  CUDA_KERNELS=nvcc builds a fatbin with the
# CUDA toolkit instead, which FFmpeg counts as nonfree (FLOAT_ADM_CUDA_NONFREE).
# Its tests and benchmark: tests/cuda/module.mk, bench/cuda/module.mk.
# SPDX-License-Identifier: LGPL-2.1-or-later

# PTX for compute capability 8.0 and later (PTX ISA 7.0, which clang 14 writes): the
# driver compiles it for the device it runs on (Ampere, Ada, Hopper, ...).
CUDA_PTX_ARCH ?= sm_80
CUDA_PTX_ISA ?= ptx70
# clang's CUDA default is -ffp-contract=fast: off, as everywhere scores are computed;
# denormals kept, as the CPU keeps them.  Shared-memory addresses in 32 bits, as nvcc
# makes them: a register each instead of two (-fcuda-short-ptr sets the front end's
# data layout, -nvptx-short-ptr the back end's; clang 14 needs both).
CUDA_CLANG_FLAGS := -x cuda --cuda-device-only -nocudainc -nocudalib \
                    --cuda-gpu-arch=$(CUDA_PTX_ARCH) -Xclang -target-feature -Xclang +$(CUDA_PTX_ISA) \
                    -fcuda-short-ptr -mllvm --nvptx-short-ptr \
                    -std=c++17 -O3 -ffp-contract=off -fno-gpu-flush-denormals-to-zero \
                    -Wall -Wextra -Wno-unknown-cuda-version -Iinclude -Isrc/adm_core -Isrc/adm_cuda
# nvcc: SASS for Hopper and PTX for later chips; --fmad=false, IEEE division and sqrt.
CUDA_GENCODE ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NVCC_FLAGS := -std=c++17 -O3 --fmad=false -prec-div=true -prec-sqrt=true -ftz=false \
              $(CUDA_GENCODE) -Iinclude -Isrc/adm_core -Isrc/adm_cuda
CUDA_LIBS := -ldl -lpthread

CUDA_OBJ_DIR := $(BUILD)/obj/src/adm_cuda
CUDA_HOST_SRCS := src/adm_cuda/adm_cuda_abi.cpp src/adm_cuda/adm_cuda_api.cpp src/adm_cuda/adm_cuda_devices.cpp \
                  src/adm_cuda/adm_cuda_context.cpp src/adm_cuda/adm_cuda_planes.cpp \
                  src/adm_cuda/adm_cuda_enqueue.cpp src/adm_cuda/adm_cuda_queue.cpp \
                  src/adm_cuda/adm_cuda_errors.cpp src/adm_cuda/adm_cuda_driver.cpp \
                  src/adm_cuda/adm_cuda_host.cpp \
                  src/adm_cuda/adm_cuda_launch.cpp src/adm_cuda/adm_cuda_map.cpp \
                  src/adm_cuda/adm_rcp_model.cpp \
                  src/adm_cuda/adm_powf_model.cpp
CUDA_HOST_OBJS := $(CUDA_HOST_SRCS:%.cpp=$(BUILD)/obj/%.o)
ifeq ($(CUDA_KERNELS),nvcc)
CUDA_IMAGE := $(CUDA_OBJ_DIR)/adm_cuda_kernels.fatbin
CUDA_NONFREE := yes
$(CUDA_HOST_OBJS): private CXXFLAGS_ALL += -DFLOAT_ADM_CUDA_NONFREE
else
CUDA_IMAGE := $(CUDA_OBJ_DIR)/adm_cuda_kernels.ptx
CUDA_NONFREE := no
endif
CUDA_IMAGE_OBJ := $(CUDA_OBJ_DIR)/adm_cuda_image.o
CUDA_LIB_OBJS := $(CUDA_HOST_OBJS) $(CUDA_IMAGE_OBJ)
CUDA_LIB := $(BUILD)/lib/libfloatadm_cuda.a
CUDA_HEADER_OUT := $(BUILD)/include/float_adm_cuda.h
CUDA_PC := $(BUILD)/lib/pkgconfig/floatadm_cuda.pc
CUDA_SONAME := libfloatadm_cuda.so.$(CORE_SOVERSION)
CUDA_SHLIB := $(CORE_SHLIB_DIR)/libfloatadm_cuda.so.$(CORE_VERSION)
CUDA_SHLIB_LINKS := $(CORE_SHLIB_DIR)/$(CUDA_SONAME) $(CORE_SHLIB_DIR)/libfloatadm_cuda.so

all: $(CUDA_LIB) $(CUDA_HEADER_OUT) $(CUDA_PC) $(CUDA_SHLIB) $(CUDA_SHLIB_LINKS)

$(CUDA_OBJ_DIR)/adm_cuda_kernels.ptx: src/adm_cuda/adm_cuda_kernels.cu config.mak
	@mkdir -p $(dir $@)
	$(CUDA_CLANG) $(CUDA_CLANG_FLAGS) -MMD -MP -MF $@.d -S $< -o $@

$(CUDA_OBJ_DIR)/adm_cuda_kernels.fatbin: src/adm_cuda/adm_cuda_kernels.cu config.mak
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -MMD -MP -MF $@.d --fatbin $< -o $@

# The image goes into .rodata as it is, NUL-terminated (PTX is text).
$(CUDA_IMAGE_OBJ): src/adm_cuda/adm_cuda_image.S $(CUDA_IMAGE)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -DADM_CUDA_IMAGE='"$(CUDA_IMAGE)"' $< -o $@

$(CUDA_HOST_OBJS): private CXXFLAGS_ALL += -Isrc/adm_cuda -fvisibility=hidden -DFLOAT_ADM_BUILDING_LIBRARY

$(CUDA_LIB): $(CUDA_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The core's internals it shares with the CPU path come from the archive: libfloatadm.so
# exports only the C API.
$(CUDA_SHLIB): $(CUDA_LIB_OBJS) $(CORE_LIB) src/adm_cuda/libfloatadm_cuda.map
	@mkdir -p $(dir $@)
	$(CXX) -shared $(CXXFLAGS_ALL) -Wl,-soname,$(CUDA_SONAME) \
	  -Wl,--version-script=src/adm_cuda/libfloatadm_cuda.map -Wl,--no-undefined -Wl,--as-needed \
	  $(CUDA_LIB_OBJS) $(CORE_LIB) $(LDFLAGS_ALL) $(CUDA_LIBS) -o $@

$(CUDA_SHLIB_LINKS): $(CUDA_SHLIB)
	ln -sf $(notdir $<) $@

$(CUDA_HEADER_OUT): include/float_adm_cuda.h
	@mkdir -p $(dir $@)
	cp $< $@

# FFmpeg's configure finds the backend through it (float_adm_cuda's deps); nonfree=yes
# where nvcc built the kernels, for configure to require --enable-nonfree.
$(CUDA_PC): src/adm_cuda/module.mk config.mak include/float_adm.h
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(ABS_BUILD)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' \
	  'nonfree=$(CUDA_NONFREE)' '' \
	  'Name: floatadm_cuda' 'Description: float ADM on NVIDIA GPUs, bit-exact with floatadm' \
	  'Version: $(CORE_VERSION)' 'Requires: floatadm' 'Libs: -L$${libdir} -lfloatadm_cuda $(CUDA_LIBS)' \
	  'Libs.private: $(CUDA_LIBS)' 'Cflags: -I$${includedir}' > $@

-include $(CUDA_HOST_OBJS:.o=.d) $(CUDA_IMAGE).d
