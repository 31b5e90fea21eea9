# The C++ core: build/lib/libfloatadm.a, build/include/float_adm.h, floatadm.pc, and the
# shared library build/lib/shared/libfloatadm.so.VERSION (SONAME libfloatadm.so.MAJOR).
# include/ holds the public headers, src/ only internal ones.
CORE_SRCS := $(wildcard src/adm_core/*.cpp)
CORE_OBJS := $(CORE_SRCS:%.cpp=$(BUILD)/obj/%.o)
CORE_LIB := $(BUILD)/lib/libfloatadm.a
CORE_HEADER_OUT := $(BUILD)/include/float_adm.h
CORE_PC := $(BUILD)/lib/pkgconfig/floatadm.pc
ABS_BUILD = $(abspath $(BUILD))
# The version, from float_adm.h's FLOAT_ADM_VERSION_MAJOR/MINOR/PATCH.
CORE_VERSION := $(shell sed -n 's/.*FLOAT_ADM_VERSION_[A-Z]* *\([0-9][0-9]*\)$$/\1/p' \
                  include/float_adm.h | paste -sd. -)
CORE_SOVERSION := $(firstword $(subst ., ,$(CORE_VERSION)))
# The shared library sits apart from the archive, so that -L$(BUILD)/lib -lfloatadm
# (FFmpeg's configure) still links the archive.
CORE_SHLIB_DIR := $(BUILD)/lib/shared
CORE_SONAME := libfloatadm.so.$(CORE_SOVERSION)
CORE_SHLIB := $(CORE_SHLIB_DIR)/libfloatadm.so.$(CORE_VERSION)
CORE_SHLIB_LINKS := $(CORE_SHLIB_DIR)/$(CORE_SONAME) $(CORE_SHLIB_DIR)/libfloatadm.so

all: $(CORE_LIB) $(CORE_HEADER_OUT) $(CORE_PC) $(CORE_SHLIB) $(CORE_SHLIB_LINKS)

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) -Iinclude -Isrc/adm_core -MMD -MP -c $< -o $@

# The vector kernels: one translation unit per level, adm_simd_<level>.cpp, each built
# with SIMD_FLAGS_<level> alone (never -mfma; -ffp-contract=off keeps AVX-512's FMA
# unused).  Every build of the core (fuzz/module.mk too) takes the flags from here;
# the dispatcher runs a level only where the processor has it.
SIMD_FLAGS_sse2   := -msse2
SIMD_FLAGS_avx2   := -mavx2
SIMD_FLAGS_avx512 := -mavx512f
SIMD_VECTOR_LEVELS := $(patsubst SIMD_FLAGS_%,%,$(filter SIMD_FLAGS_%,$(.VARIABLES)))
# simd_flags_of(OBJDIR,VARIABLE,COMPILER): VARIABLE += the level's flags on each
# kernel object under OBJDIR, where COMPILER targets x86.
simd_flags_of = $(if $(filter x86_64-% i386-% i486-% i586-% i686-%,$(shell $(3) -dumpmachine 2>/dev/null)), \
    $(foreach level,$(SIMD_VECTOR_LEVELS), \
        $(eval $(1)/src/adm_core/adm_simd_$(level).o: $(2) += $(SIMD_FLAGS_$(level)))))
$(call simd_flags_of,$(BUILD)/obj,CXXFLAGS_ALL,$(CXX))

# Everything is hidden but the C API, which float_adm.h declares with default visibility.
# FLOAT_ADM_BUILDING_LIBRARY: the library defines the plain functions that the header's
# macros turn into their _sized twins elsewhere (docs/abi.md).
$(CORE_OBJS): private CXXFLAGS_ALL += -fvisibility=hidden -DFLOAT_ADM_BUILDING_LIBRARY

$(CORE_LIB): $(CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The C API alone is exported (libfloatadm.map); libstdc++ is a dependency of the
# library, so a C program links it with -lfloatadm alone.
$(CORE_SHLIB): $(CORE_OBJS) src/adm_core/libfloatadm.map
	@mkdir -p $(dir $@)
	$(CXX) -shared $(CXXFLAGS_ALL) -Wl,-soname,$(CORE_SONAME) \
	  -Wl,--version-script=src/adm_core/libfloatadm.map -Wl,--no-undefined -Wl,--as-needed \
	  $(CORE_OBJS) $(LDFLAGS_ALL) -o $@

$(CORE_SHLIB_LINKS): $(CORE_SHLIB)
	ln -sf $(notdir $<) $@

$(CORE_HEADER_OUT): include/float_adm.h
	@mkdir -p $(dir $@)
	cp $< $@

# The build tree's lib/ holds the static archive alone, so its Libs name what the archive
# needs (a program or FFmpeg links against the tree without --static); make install's
# copy, beside the shared library, keeps them in Libs.private alone (PC_SED).
$(CORE_PC): src/adm_core/module.mk config.mak include/float_adm.h
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(ABS_BUILD)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: floatadm' 'Description: Netflix VMAF float ADM, bit-exact with libvmaf' \
	  'Version: $(CORE_VERSION)' 'Libs: -L$${libdir} -lfloatadm $(CORE_PRIVATE_LIBS)' \
	  'Libs.private: $(CORE_PRIVATE_LIBS)' \
	  'Cflags: -I$${includedir}' > $@

-include $(CORE_OBJS:.o=.d)
