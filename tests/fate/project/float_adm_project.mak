# The project's own FATE tests of the float_adm filter, beside the series' (never in
# it): more pixel formats and option groups, the logs' layouts, the map output,
# the error messages, and frame pairing through real encoders (in the loop and
# afterwards).  They run in the embedded FFmpeg tree only (mk/ffmpeg.mk adds this
# file, its refs and float_adm_project-run.sh's helpers to the tree).
#
# Scores compared at a relative tolerance of 1e-6, as the series' are.

FLOAT_ADM_PROJECT_FUZZ = 0.000001

# More formats than the series' two tests: 16-bit and 10-bit 4:4:4 planar,
# 8-bit semi-planar and gray, with the debug sums; without debug: the seven
# scores; every other frame; the filter threads of the host.
FATE_FLOAT_ADM_REFCMP += fate-float-adm-yuv420p16
fate-float-adm-yuv420p16: CMD = refcmp_metadata float_adm=debug=1 yuv420p16le $(FLOAT_ADM_PROJECT_FUZZ)
FATE_FLOAT_ADM_REFCMP += fate-float-adm-nv12
fate-float-adm-nv12: CMD = refcmp_metadata float_adm=debug=1 nv12 $(FLOAT_ADM_PROJECT_FUZZ)
FATE_FLOAT_ADM_REFCMP += fate-float-adm-nodebug
fate-float-adm-nodebug: CMD = refcmp_metadata float_adm yuv420p $(FLOAT_ADM_PROJECT_FUZZ)
FATE_FLOAT_ADM_REFCMP += fate-float-adm-yuv444p10
fate-float-adm-yuv444p10: CMD = refcmp_metadata float_adm=debug=1 yuv444p10le $(FLOAT_ADM_PROJECT_FUZZ)
FATE_FLOAT_ADM_REFCMP += fate-float-adm-gray
fate-float-adm-gray: CMD = refcmp_metadata float_adm=debug=1 gray $(FLOAT_ADM_PROJECT_FUZZ)
FATE_FLOAT_ADM_REFCMP += fate-float-adm-subsample
fate-float-adm-subsample: CMD = refcmp_metadata float_adm=n_subsample=2 yuv420p $(FLOAT_ADM_PROJECT_FUZZ)

# The groups of libvmaf's options, under libvmaf's names.
FATE_FLOAT_ADM_REFCMP += fate-float-adm-view
fate-float-adm-view: CMD = refcmp_metadata float_adm=debug=1:adm_enhn_gain_limit=1.2:adm_norm_view_dist=1.5:adm_ref_display_height=2160 yuv420p $(FLOAT_ADM_PROJECT_FUZZ)
FATE_FLOAT_ADM_REFCMP += fate-float-adm-csf
fate-float-adm-csf: CMD = refcmp_metadata float_adm=debug=1:adm_csf_mode=1:adm_csf_scale=2:adm_csf_diag_scale=0.5:adm_noise_weight=0 yuv420p $(FLOAT_ADM_PROJECT_FUZZ)
FATE_FLOAT_ADM_REFCMP += fate-float-adm-pooling
fate-float-adm-pooling: CMD = refcmp_metadata float_adm=debug=1:adm_p_norm=2.5:adm_bypass_cm=1:adm_skip_aim_scale=2:adm_skip_scale0=1 yuv420p $(FLOAT_ADM_PROJECT_FUZZ)
FATE_FLOAT_ADM_REFCMP += fate-float-adm-adm3
fate-float-adm-adm3: CMD = refcmp_metadata float_adm=debug=1:adm_adm3_apply_hm=1:adm_dlm_weight=0.3:adm_min_val=0.2:adm_f1s0=0.02:adm_f2s1=0.03:adm_f1s3=0.5 yuv420p $(FLOAT_ADM_PROJECT_FUZZ)

FATE_FLOAT_ADM_PROJECT-$(call ALLYES, FLOAT_ADM_FILTER TESTSRC2_FILTER FORMAT_FILTER SPLIT_FILTER AVGBLUR_FILTER \
                              METADATA_FILTER WRAPPED_AVFRAME_ENCODER NULL_MUXER PIPE_PROTOCOL) += $(FATE_FLOAT_ADM_REFCMP)

# The log in libvmaf's layouts on stdout, its numbers masked: the layout is
# what these check, the values are the tests' above.
FATE_FLOAT_ADM_LOG += fate-float-adm-log-json
fate-float-adm-log-json: CMD = float_adm_log debug=1:log_fmt=json
FATE_FLOAT_ADM_LOG += fate-float-adm-log-csv
fate-float-adm-log-csv: CMD = float_adm_log log_fmt=csv
FATE_FLOAT_ADM_LOG += fate-float-adm-log-xml
fate-float-adm-log-xml: CMD = float_adm_log debug=1:log_fmt=xml
FATE_FLOAT_ADM_LOG += fate-float-adm-log-sub
fate-float-adm-log-sub: CMD = float_adm_log log_fmt=sub

FATE_FLOAT_ADM_PROJECT-$(call ALLYES, FLOAT_ADM_FILTER TESTSRC2_FILTER SPLIT_FILTER AVGBLUR_FILTER \
                              WRAPPED_AVFRAME_ENCODER NULL_MUXER PIPE_PROTOCOL) += $(FATE_FLOAT_ADM_LOG)

# The float_adm_map filter (its extra's own test, filter-float-adm-map, shows
# identical inputs give black pictures): a half-blurred input's maps are checked by what holds
# on any processor (float_adm_project-run.sh, float_adm_map_frames), every frame
# scored and every other one; the pictures painted in slices of block rows on three
# threads, a partial row last, are those painted on one (float_adm_map_threads).
FATE_FLOAT_ADM_MAP += fate-float-adm-map-blur
fate-float-adm-map-blur: CMD = float_adm_map_frames n_subsample=1
FATE_FLOAT_ADM_MAP += fate-float-adm-map-subsample
fate-float-adm-map-subsample: CMD = float_adm_map_frames n_subsample=2
FATE_FLOAT_ADM_MAP += fate-float-adm-map-threads
fate-float-adm-map-threads: CMD = float_adm_map_threads

FATE_FLOAT_ADM_PROJECT-$(call ALLYES, FLOAT_ADM_MAP_FILTER TESTSRC2_FILTER FORMAT_FILTER SPLIT_FILTER PAD_FILTER \
                              AVGBLUR_FILTER RAWVIDEO_ENCODER WRAPPED_AVFRAME_ENCODER \
                              FRAMECRC_MUXER FRAMEMD5_MUXER RAWVIDEO_MUXER NULL_MUXER PIPE_PROTOCOL \
                              FILE_PROTOCOL) += $(FATE_FLOAT_ADM_MAP)

# Errors: the first message about the filter.
FLOAT_ADM_LAVFI_DEPS = FLOAT_ADM_FILTER TESTSRC2_FILTER FORMAT_FILTER NULL_MUXER WRAPPED_AVFRAME_ENCODER

FATE_FLOAT_ADM_ERRORS += fate-float-adm-error-size
fate-float-adm-error-size: CMD = float_adm_fail -lavfi "testsrc2=s=64x64:d=0.08[a];testsrc2=s=96x64:d=0.08[b];[a][b]float_adm"
FATE_FLOAT_ADM_ERRORS += fate-float-adm-error-pixfmt
fate-float-adm-error-pixfmt: CMD = float_adm_fail -lavfi "testsrc2=s=64x64:d=0.08,format=rgb24[a];testsrc2=s=64x64:d=0.08,format=rgb24[b];[a][b]float_adm"
FATE_FLOAT_ADM_ERRORS += fate-float-adm-error-range
fate-float-adm-error-range: CMD = float_adm_fail -lavfi "testsrc2=s=64x64:d=0.08[a];testsrc2=s=64x64:d=0.08[b];[a][b]float_adm=adm_p_norm=0.5"
FATE_FLOAT_ADM_ERRORS += fate-float-adm-error-log-path
fate-float-adm-error-log-path: CMD = float_adm_fail -lavfi "testsrc2=s=64x64:d=0.08[a];testsrc2=s=64x64:d=0.08[b];[a][b]float_adm=log_path=/nonexistent-dir/adm.json"
FATE_FLOAT_ADM_ERRORS += fate-float-adm-error-map-pattern
fate-float-adm-error-map-pattern: CMD = float_adm_fail -lavfi "testsrc2=s=64x64:d=0.08[a];testsrc2=s=64x64:d=0.08[b];[a][b]float_adm=map_path=adm%s.pfm"
FATE_FLOAT_ADM_ERRORS += fate-float-adm-error-map-path
fate-float-adm-error-map-path: CMD = float_adm_fail -lavfi "testsrc2=s=64x64:d=0.08[a];testsrc2=s=64x64:d=0.08[b];[a][b]float_adm=map_path=/nonexistent-dir/adm%d.pfm"
FATE_FLOAT_ADM_ERRORS += fate-float-adm-error-alias
fate-float-adm-error-alias: CMD = float_adm_fail -lavfi "testsrc2=s=64x64:d=0.08[a];testsrc2=s=64x64:d=0.08[b];[a][b]float_adm=egl=1.2"

FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_LAVFI_DEPS)) += $(FATE_FLOAT_ADM_ERRORS)

# -frames:v N: the log holds only frames the filter passed on, and no more than
# psnr's stats_file after it in the same chain, on one filter thread and on four.
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_LAVFI_DEPS) SPLIT_FILTER AVGBLUR_FILTER PSNR_FILTER \
                              FILE_PROTOCOL) += fate-float-adm-frames-limit
fate-float-adm-frames-limit: CMD = float_adm_frames_limit 7

# Pairing: a transcode scored in the loop (loopback decoder, millisecond
# timestamps) and the written file scored against the source afterwards, at
# frame rates whose frame times are not whole milliseconds and with a source
# whose timestamps jitter, equal scoring frame by frame.
FLOAT_ADM_PAIRING_DEPS = $(FLOAT_ADM_LAVFI_DEPS) FFV1_ENCODER FFV1_DECODER METADATA_FILTER \
    MATROSKA_MUXER MATROSKA_DEMUXER YUV4MPEGPIPE_MUXER YUV4MPEGPIPE_DEMUXER SETPTS_FILTER FILE_PROTOCOL
fate-float-adm-transcode-mpeg2: CMD = float_adm_transcode "testsrc2=size=176x144:rate=25:duration=0.4,format=yuv420p" mkv -c:v mpeg2video -qscale:v 12
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) MPEG2VIDEO_ENCODER MPEG2VIDEO_DECODER) += fate-float-adm-transcode-mpeg2
fate-float-adm-transcode-svtav1: CMD = float_adm_transcode "testsrc2=size=176x144:rate=24:duration=0.5,format=yuv420p" mkv -c:v libsvtav1 -preset 12 -crf 50
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) LIBSVTAV1_ENCODER LIBDAV1D_DECODER) += fate-float-adm-transcode-svtav1
fate-float-adm-transcode-vp9: CMD = float_adm_transcode "testsrc2=size=176x144:rate=30000/1001:duration=0.5,format=yuv420p" mkv -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 150k
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) LIBVPX_VP9_ENCODER VP9_DECODER) += fate-float-adm-transcode-vp9
fate-float-adm-transcode-x264: CMD = float_adm_transcode "testsrc2=size=176x144:rate=24:duration=0.5,format=yuv420p" mkv -c:v libx264 -preset ultrafast -crf 35
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) LIBX264_ENCODER H264_DECODER) += fate-float-adm-transcode-x264
fate-float-adm-pairing-24: CMD = float_adm_transcode "testsrc2=size=176x144:rate=24:duration=0.5,format=yuv420p" mkv -c:v mpeg2video -qscale:v 12
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) MPEG2VIDEO_ENCODER MPEG2VIDEO_DECODER) += fate-float-adm-pairing-24
fate-float-adm-pairing-23.976: CMD = float_adm_transcode "testsrc2=size=176x144:rate=24000/1001:duration=0.5,format=yuv420p" mkv -c:v mpeg2video -qscale:v 12
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) MPEG2VIDEO_ENCODER MPEG2VIDEO_DECODER) += fate-float-adm-pairing-23.976
fate-float-adm-pairing-29.97: CMD = float_adm_transcode "testsrc2=size=176x144:rate=30000/1001:duration=0.5,format=yuv420p" mkv -c:v mpeg2video -qscale:v 12
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) MPEG2VIDEO_ENCODER MPEG2VIDEO_DECODER) += fate-float-adm-pairing-29.97
fate-float-adm-pairing-30: CMD = float_adm_transcode "testsrc2=size=176x144:rate=30:duration=0.5,format=yuv420p" mkv -c:v mpeg2video -qscale:v 12
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) MPEG2VIDEO_ENCODER MPEG2VIDEO_DECODER) += fate-float-adm-pairing-30
fate-float-adm-pairing-60: CMD = float_adm_transcode "testsrc2=size=176x144:rate=60:duration=0.25,format=yuv420p" mkv -c:v mpeg2video -qscale:v 12
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) MPEG2VIDEO_ENCODER MPEG2VIDEO_DECODER) += fate-float-adm-pairing-60
fate-float-adm-pairing-y4m-24: CMD = float_adm_transcode "testsrc2=size=176x144:rate=24:duration=0.5,format=yuv420p" y4m -c:v mpeg2video -qscale:v 12
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) MPEG2VIDEO_ENCODER MPEG2VIDEO_DECODER) += fate-float-adm-pairing-y4m-24
fate-float-adm-pairing-y4m-29.97: CMD = float_adm_transcode "testsrc2=size=176x144:rate=30000/1001:duration=0.5,format=yuv420p" y4m -c:v mpeg2video -qscale:v 12
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) MPEG2VIDEO_ENCODER MPEG2VIDEO_DECODER) += fate-float-adm-pairing-y4m-29.97
fate-float-adm-pairing-vfr: CMD = float_adm_transcode "testsrc2=size=176x144:rate=24:duration=0.5,format=yuv420p,setpts=N/24/TB+0.012*sin(N*2)/TB" mkv -c:v mpeg2video -qscale:v 12
FATE_FLOAT_ADM_PROJECT-$(call ALLYES, $(FLOAT_ADM_PAIRING_DEPS) MPEG2VIDEO_ENCODER MPEG2VIDEO_DECODER) += fate-float-adm-pairing-vfr

FATE_FFMPEG += $(FATE_FLOAT_ADM_PROJECT-yes)
fate-float-adm-project: $(FATE_FLOAT_ADM_PROJECT-yes)
