The map filter's test beside float_adm's: identical inputs lose nothing, so
every picture is black on any processor; one picture per main frame, at the
main input's size and timestamps.
@@ after fate-filter-refcmp-float-adm-p010: CMD = .*

FATE_FILTER-$(call FILTERFRAMECRC, TESTSRC2 FORMAT SPLIT FLOAT_ADM_MAP) += fate-filter-float-adm-map
fate-filter-float-adm-map: CMD = framecrc -lavfi "testsrc2=size=100x70:rate=25:duration=0.2,format=yuv420p,split[ref][dist];[dist][ref]float_adm_map" -c:v rawvideo
