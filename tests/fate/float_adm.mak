# float_adm: Netflix VMAF's float ADM features through libfloatadm.
#
# testsrc2 against a blurred copy, through refcmp_metadata as psnr and ssim are
# tested: 8-bit with the debug sums, 10-bit 4:4:4, 10-bit semi-planar, gray,
# every other frame, and one group of libvmaf's options under its aliases.  The
# scores are compared at a relative tolerance of 1e-6: ADM divides with the
# processor's reciprocal estimate (RCPSS on x86, as libvmaf does), whose values
# differ between processors by up to about 1.3e-7 relative, and 1e-6 still fails
# on any change to the arithmetic.

FLOAT_ADM_FUZZ = 0.000001

FATE_FLOAT_ADM += fate-float-adm-yuv420p
fate-float-adm-yuv420p: CMD = refcmp_metadata float_adm=debug=1 yuv420p $(FLOAT_ADM_FUZZ)
FATE_FLOAT_ADM += fate-float-adm-yuv444p10
fate-float-adm-yuv444p10: CMD = refcmp_metadata float_adm=debug=1 yuv444p10le $(FLOAT_ADM_FUZZ)
FATE_FLOAT_ADM += fate-float-adm-p010
fate-float-adm-p010: CMD = refcmp_metadata float_adm=debug=1 p010le $(FLOAT_ADM_FUZZ)
FATE_FLOAT_ADM += fate-float-adm-gray
fate-float-adm-gray: CMD = refcmp_metadata float_adm=debug=1 gray $(FLOAT_ADM_FUZZ)
FATE_FLOAT_ADM += fate-float-adm-subsample
fate-float-adm-subsample: CMD = refcmp_metadata float_adm=n_subsample=2 yuv420p $(FLOAT_ADM_FUZZ)
FATE_FLOAT_ADM += fate-float-adm-view
fate-float-adm-view: CMD = refcmp_metadata float_adm=debug=1:egl=1.2:nvd=1.5:rdf=2160 yuv420p $(FLOAT_ADM_FUZZ)

FATE_FLOAT_ADM-$(call ALLYES, FLOAT_ADM_FILTER TESTSRC2_FILTER FORMAT_FILTER SPLIT_FILTER AVGBLUR_FILTER \
                              METADATA_FILTER WRAPPED_AVFRAME_ENCODER NULL_MUXER PIPE_PROTOCOL) += $(FATE_FLOAT_ADM)

FATE_FFMPEG += $(FATE_FLOAT_ADM-yes)
fate-float-adm: $(FATE_FLOAT_ADM-yes)
