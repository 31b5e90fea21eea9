Two refcmp tests beside psnr's and ssim's: 8-bit planar with the debug sums,
10-bit semi-planar, each frame in slices on two threads; and the log of a
filtergraph rebuilt mid-stream.
@@ before FATE_FILTER_REFCMP_METADATA-\$\(call ALLYES, PSNR_FILTER SCALE_FILTER\) \+= fate-filter-refcmp-psnr-rgb
FATE_FILTER_REFCMP_METADATA-$(CONFIG_FLOAT_ADM_FILTER) += fate-filter-refcmp-float-adm-yuv
fate-filter-refcmp-float-adm-yuv: CMD = refcmp_metadata float_adm=debug=1:threads=2 yuv420p 0.000001

# Both inputs P010: avgblur takes no semi-planar format, so the blurred copy is
# converted there and back.
FATE_FILTER-$(call ALLYES, FLOAT_ADM_FILTER TESTSRC2_FILTER FORMAT_FILTER SPLIT_FILTER \
                           SCALE_FILTER AVGBLUR_FILTER METADATA_FILTER            \
                           WRAPPED_AVFRAME_ENCODER NULL_MUXER PIPE_PROTOCOL) += fate-filter-refcmp-float-adm-p010
fate-filter-refcmp-float-adm-p010: CMD = cmp_metadata "split[ref][tmp];[tmp]scale,format=yuv420p10le,avgblur=4,scale,format=p010le[enc];[enc][ref]float_adm=debug=1:threads=2" p010le 0.000001

# The decoded input grows mid-stream: ffmpeg rebuilds the graph, and the
# new instance's log replaces the first's, its frames numbered from 0.
FATE_FILTER-$(call ALLYES, LAVFI_INDEV TESTSRC2_FILTER SCALE_FILTER SPLIT_FILTER FLOAT_ADM_FILTER \
                           WRAPPED_AVFRAME_ENCODER NULL_MUXER FILE_PROTOCOL) += fate-filter-float-adm-log-rebuild
fate-filter-float-adm-log-rebuild: CMD = ffmpeg -f lavfi -i "testsrc2=size=64x48:rate=25:duration=0.4,scale=w=if(lt(n\,5)\,64\,80):h=48:eval=frame" -lavfi "scale=64:48,split[dist][ref];[dist][ref]float_adm=log_fmt=csv:log_path=$(TARGET_PATH)/tests/data/fate/filter-float-adm-log-rebuild.csv" -f null - && cut -d, -f1 tests/data/fate/filter-float-adm-log-rebuild.csv
