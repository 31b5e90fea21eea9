The filter's registration, declared with the release's filter type (AVFilter in
7.1, FFFilter from 8.0 on): \1 is the type of the line it goes above.
@@ before extern const (\w+) ff_vf_floodfill;
extern const \1 ff_vf_float_adm;
