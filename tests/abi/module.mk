# The ABI test (tests/abi/test_abi.sh, docs/abi.md): the exported symbols and their
# versions against src/adm_core/libfloatadm.symbols (and the CUDA library's), and a
# program built against libfloatadm 1.2's header (float_adm-1.2.h, that release's
# include/float_adm.h unchanged) against today's library.
# SPDX-License-Identifier: LGPL-2.1-or-later
.PHONY: check-abi
ABI_CLIP := $(CORPUS_DIR)/astronaut_576x324_yuv420p_x264

check-abi: $(CORE_SHLIB_LINKS) $(CORE_HEADER_OUT) $(CORE_OBJS) $(ABI_CLIP).ref.yuv \
           $(ABI_CLIP).dis.yuv $(if $(filter yes,$(HAVE_CUDA)),$(CUDA_SHLIB_LINKS))
	HAVE_CUDA=$(HAVE_CUDA) sh tests/abi/test_abi.sh $(BUILD) "$(CC)" $(ABI_CLIP).ref.yuv $(ABI_CLIP).dis.yuv \
	    576 324 yuv420p

check: check-abi
check-lib: check-abi
