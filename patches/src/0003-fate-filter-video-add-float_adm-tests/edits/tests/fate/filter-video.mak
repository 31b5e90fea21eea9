Two refcmp tests beside psnr's and ssim's: 8-bit planar with the debug sums,
10-bit semi-planar, each frame in slices on two threads.
@@ before FATE_FILTER_REFCMP_METADATA-\$\(call ALLYES, PSNR_FILTER SCALE_FILTER\) \+= fate-filter-refcmp-psnr-rgb
FATE_FILTER_REFCMP_METADATA-$(CONFIG_FLOAT_ADM_FILTER) += fate-filter-refcmp-float-adm-yuv
fate-filter-refcmp-float-adm-yuv: CMD = refcmp_metadata float_adm=debug=1:threads=2 yuv420p 0.000001

FATE_FILTER_REFCMP_METADATA-$(CONFIG_FLOAT_ADM_FILTER) += fate-filter-refcmp-float-adm-p010
fate-filter-refcmp-float-adm-p010: CMD = refcmp_metadata float_adm=debug=1:threads=2 p010le 0.000001

