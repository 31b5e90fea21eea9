The float_adm_map filter's registration, after the float_adm filters', with
their type (\1: AVFilter in 7.1, FFFilter from 8.0 on).
@@ after extern const (\w+) ff_vf_float_adm_cuda;
extern const \1 ff_vf_float_adm_map;
