The CUDA filter's registration, after the CPU filter's.
@@ after extern const (\w+) ff_vf_float_adm;
extern const \1 ff_vf_float_adm_cuda;
