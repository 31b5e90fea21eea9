/*
 * score_frame: the C API in one page.  Scores one synthetic 8-bit frame pair and
 * prints adm2, aim and adm3.  Against an installed libfloatadm:
 *   cc score_frame.c $(pkg-config --cflags --libs floatadm) -o score_frame
 *
 * Copyright (c) 2026 the float_adm authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 */

#include <stdint.h>
#include <stdio.h>

#include <float_adm.h>

enum { WIDTH = 64, HEIGHT = 48 };

int main(void)
{
    static uint8_t ref_pixels[HEIGHT][WIDTH], dist_pixels[HEIGHT][WIDTH];
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++) {
            ref_pixels[y][x] = (uint8_t)(2 * x + y);                     /* a ramp */
            dist_pixels[y][x] = (uint8_t)(ref_pixels[y][x] + x * y % 5); /* with noise */
        }

    char err[256];
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    if (float_adm_option_set(&opts, "egl", "1.2", err, sizeof(err)) < 0) { /* name or alias */
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    FloatAdmContext *ctx;
    if (float_adm_context_create(&ctx, WIDTH, HEIGHT, 8, &opts, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    /* data, stride in bytes, bytes per sample, right shift of each sample */
    FloatAdmPlane ref = {ref_pixels, WIDTH, 1, 0}, dist = {dist_pixels, WIDTH, 1, 0};
    FloatAdmScores s;
    int ret = float_adm_score_frame(ctx, &ref, &dist, &s);
    float_adm_context_free(&ctx);
    if (ret < 0) {
        fprintf(stderr, "%s\n", float_adm_strerror(ret));
        return 1;
    }
    printf("adm2 %.6f  aim %.6f  adm3 %.6f\n", s.adm2, s.aim, s.adm3);
    return 0;
}
