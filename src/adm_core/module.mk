# The C++ core: build/lib/libfloatadm.a, build/include/float_adm.h, floatadm.pc.
# include/ holds the public headers, src/ only internal ones.
CORE_SRCS := $(wildcard src/adm_core/*.cpp)
CORE_OBJS := $(CORE_SRCS:%.cpp=$(BUILD)/obj/%.o)
CORE_LIB := $(BUILD)/lib/libfloatadm.a
CORE_HEADER_OUT := $(BUILD)/include/float_adm.h
CORE_PC := $(BUILD)/lib/pkgconfig/floatadm.pc
ABS_BUILD = $(abspath $(BUILD))

all: $(CORE_LIB) $(CORE_HEADER_OUT) $(CORE_PC)

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) -Iinclude -Isrc/adm_core -MMD -MP -c $< -o $@

# The vector kernels: one translation unit per level, each with only its own -m
# flags (never -mfma; -ffp-contract=off keeps AVX-512's FMA unused).  The
# dispatcher runs a level only where the processor has it.
ifneq ($(filter x86_64-% i386-% i486-% i586-% i686-%,$(shell $(CXX) -dumpmachine)),)
$(BUILD)/obj/src/adm_core/adm_simd_sse2.o: CXXFLAGS_ALL += -msse2
$(BUILD)/obj/src/adm_core/adm_simd_avx2.o: CXXFLAGS_ALL += -mavx2
$(BUILD)/obj/src/adm_core/adm_simd_avx512.o: CXXFLAGS_ALL += -mavx512f
endif

$(CORE_LIB): $(CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(CORE_HEADER_OUT): include/float_adm.h
	@mkdir -p $(dir $@)
	cp $< $@

$(CORE_PC): src/adm_core/module.mk config.mak
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(ABS_BUILD)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: floatadm' 'Description: Netflix VMAF float ADM, bit-exact with libvmaf' \
	  'Version: 1.0.0' 'Libs: -L$${libdir} -lfloatadm' 'Libs.private: $(CORE_PRIVATE_LIBS)' \
	  'Cflags: -I$${includedir}' > $@

-include $(CORE_OBJS:.o=.d)
