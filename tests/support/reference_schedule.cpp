/*
 * The full-frame scalar schedule (see reference_schedule.h): DWT, decouple + CSF and
 * the masked row sums of each scale over full-frame buffers, then libvmaf's pooling.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstring>
#include <vector>

#include "adm_context_setup.h"
#include "adm_scale_pooling.h"
#include "adm_rcp.h"
#include "reference_schedule.h"

namespace testsupport {
namespace {

using namespace adm;

/* A w x h float image inside a buffer with a row stride in floats. */
struct OwnedBand {
    std::vector<float> data;
    int w = 0, h = 0;
    ptrdiff_t stride = 0;

    void allocate(int width, int height, ptrdiff_t row_stride)
    {
        w = width;
        h = height;
        stride = row_stride;
        data.assign((size_t)stride * h, 0.0f);
    }
    float *row(int i) { return data.data() + i * stride; }
};

/* Luma sample j of row i converted as libvmaf's picture_copy does. */
struct LumaReader {
    const uint8_t *base;
    ptrdiff_t stride;
    int wide;  /* 2 bytes per sample */
    int shift; /* samples stored in the upper bits (P010) */
    float scaler;

    float operator()(int i, int j) const
    {
        const uint8_t *row = base + i * stride;
        if (!wide)
            return input_u8(row[j]);
        uint16_t v;
        memcpy(&v, row + 2 * (ptrdiff_t)j, sizeof(v));
        return input_u16((uint16_t)(v >> shift), scaler);
    }
};

enum Picture { kRef = 0, kDist = 1 };
enum Signal { kRestored = 0, kAdditive = 1 };

class ReferenceSchedule {
public:
    ReferenceSchedule(int width, int height, int bit_depth, const FloatAdmOptions &opts)
        : opts_(opts), frame_(frame_setup(width, height, bit_depth, opts))
    {
        const ScaleGeometry &s0 = frame_.scale[0];
        for (int img = 0; img < 2; img++) {
            for (int s = 0; s < kNumScales; s++)
                approx_[img][s].allocate(frame_.scale[s].w, frame_.scale[s].h,
                                         frame_.scale[s].stride);
            for (int b = 0; b < kNumBands; b++) {
                detail_[img][b].allocate(s0.w, s0.h, s0.stride);
                weighted_[img][b].allocate(s0.w, s0.h, s0.stride);
                filtered_[img][b].allocate(s0.w, s0.h, s0.stride);
            }
        }
        lo_.resize(frame_.width);
        hi_.resize(frame_.width);
    }

    FloatAdmScores score(const FloatAdmPlane &ref, const FloatAdmPlane &dist)
    {
        input_[kRef] = ref;
        input_[kDist] = dist;
        ScaleSums sums[kNumScales];
        for (int s = 0; s < kNumScales; s++) {
            dwt(s);
            if (s == 0 && frame_.skip_scale0) {
                sums[s] = skipped_scale_sums();
                continue;
            }
            decouple_csf(s);
            sums[s] = masked_sums(s);
        }
        FloatAdmScores out{};
        pool_scales(sums, frame_.width, frame_.height, opts_, &out);
        return out;
    }

private:
    /* The four bands: vertical pass into lo/hi rows, then horizontal. */
    void dwt(int s)
    {
        const ScaleGeometry &sc = frame_.scale[s];
        const bool lo_only = s == 0 && frame_.skip_scale0;
        float *lo = lo_.data(), *hi = hi_.data();
        std::vector<int> x[4];
        for (int t = 0; t < 4; t++)
            for (int j = 0; j < sc.w; j++)
                x[t].push_back(dwt_source_index(j, t, sc.in_w));

        for (int img = 0; img < 2; img++) {
            const FloatAdmPlane &in = input_[img];
            LumaReader luma = {static_cast<const uint8_t *>(in.data), in.stride,
                               in.bytes_per_sample == 2, in.shift, frame_.input_scaler};
            OwnedBand *prev = s > 0 ? &approx_[img][s - 1] : nullptr;
            for (int i = 0; i < sc.h; i++) {
                int y[4];
                for (int t = 0; t < 4; t++)
                    y[t] = dwt_source_index(i, t, sc.in_h);
                for (int j = 0; j < sc.in_w; j++) {
                    float v[4];
                    for (int t = 0; t < 4; t++)
                        v[t] = prev ? prev->row(y[t])[j] : luma(y[t], j);
                    lo[j] = dwt_lo(v[0], v[1], v[2], v[3]);
                    hi[j] = dwt_hi(v[0], v[1], v[2], v[3]);
                }
                float *a = approx_[img][s].row(i);
                float *h = detail_[img][0].row(i), *v = detail_[img][1].row(i);
                float *d = detail_[img][2].row(i);
                for (int j = 0; j < sc.w; j++) {
                    float l0 = lo[x[0][j]], l1 = lo[x[1][j]], l2 = lo[x[2][j]], l3 = lo[x[3][j]];
                    float h0 = hi[x[0][j]], h1 = hi[x[1][j]], h2 = hi[x[2][j]], h3 = hi[x[3][j]];
                    a[j] = dwt_lo(l0, l1, l2, l3);
                    if (lo_only)
                        continue;
                    v[j] = dwt_hi(l0, l1, l2, l3);
                    h[j] = dwt_lo(h0, h1, h2, h3);
                    d[j] = dwt_hi(h0, h1, h2, h3);
                }
            }
        }
    }

    void decouple_csf(int s)
    {
        const ScaleGeometry &sc = frame_.scale[s];
        const HostDivide divide;
        for (int i = sc.decouple.top; i < sc.decouple.bottom; i++) {
            for (int j = sc.decouple.left; j < sc.decouple.right; j++) {
                float o[kNumBands], t[kNumBands];
                for (int b = 0; b < kNumBands; b++) {
                    o[b] = detail_[kRef][b].row(i)[j];
                    t[b] = detail_[kDist][b].row(i)[j];
                }
                Decoupled dc = decouple(o, t, frame_.enhn_gain_limit, frame_.cos_1deg_sq, divide);
                for (int b = 0; b < kNumBands; b++) {
                    float wr = csf_weight(sc.factor[b], dc.restored[b]);
                    float wa = csf_weight(sc.factor[b], dc.additive[b]);
                    weighted_[kRestored][b].row(i)[j] = wr;
                    filtered_[kRestored][b].row(i)[j] = csf_filtered(wr);
                    weighted_[kAdditive][b].row(i)[j] = wa;
                    filtered_[kAdditive][b].row(i)[j] = csf_filtered(wa);
                }
            }
        }
    }

    /* Each row's inner sums, columns in order; then the rows, in order. */
    ScaleSums masked_sums(int s)
    {
        const ScaleGeometry &sc = frame_.scale[s];
        const Region &r = sc.sums;
        std::vector<float> row_sums[kNumRowSums];
        for (int i = r.top; i < r.bottom; i++) {
            const int up = mask_neighbour(i - 1, sc.h), down = mask_neighbour(i + 1, sc.h);
            float inner[kNumRowSums] = {};
            for (int j = r.left; j < r.right; j++) {
                const int jl = mask_neighbour(j - 1, sc.w), jr = mask_neighbour(j + 1, sc.w);
                /* thr[m]: the masking threshold that signal m casts on the other one. */
                float thr[2] = {0.0f, 0.0f};
                if (frame_.masking) {
                    for (int m = 0; m < 2; m++) {
                        float band_thr[kNumBands];
                        for (int b = 0; b < kNumBands; b++) {
                            OwnedBand &f = filtered_[m][b];
                            const float *ru = f.row(up), *ri = f.row(i), *rd = f.row(down);
                            band_thr[b] = threshold_band(ru[jl], ru[j], ru[jr], ri[jl],
                                                         weighted_[m][b].row(i)[j], ri[jr], rd[jl],
                                                         rd[j], rd[jr]);
                        }
                        thr[m] = threshold_sum(band_thr[0], band_thr[1], band_thr[2]);
                    }
                }
                for (int b = 0; b < kNumBands; b++) {
                    inner[kDenSum + b] += reference_term(sc.factor[b], detail_[kRef][b].row(i)[j],
                                                         frame_.cube, frame_.p);
                    inner[kNumSum + b] += masked_term(weighted_[kRestored][b].row(i)[j],
                                                      thr[kAdditive], frame_.cube, frame_.p);
                    inner[kAimSum + b] += masked_term(weighted_[kAdditive][b].row(i)[j],
                                                      thr[kRestored], frame_.cube, frame_.p);
                }
            }
            for (int k = 0; k < kNumRowSums; k++)
                row_sums[k].push_back(inner[k]);
        }
        float accum[kNumRowSums];
        for (int k = 0; k < kNumRowSums; k++) {
            accum[k] = 0.0f;
            for (float row : row_sums[k])
                accum[k] += row;
        }
        return scale_sums(accum, r, opts_);
    }

    FloatAdmOptions opts_;
    FrameSetup frame_;
    FloatAdmPlane input_[2] = {};
    OwnedBand approx_[2][kNumScales];
    OwnedBand detail_[2][kNumBands];   /* h, v, d of the current scale */
    OwnedBand weighted_[2][kNumBands]; /* CSF of the restored / additive signal */
    OwnedBand filtered_[2][kNumBands]; /* their 1/30 magnitudes (masking input) */
    std::vector<float> lo_, hi_;  /* the vertical pass of one row */
};

} // namespace

FloatAdmScores reference_scores(int width, int height, int bit_depth, const FloatAdmOptions &opts,
                                const FloatAdmPlane &ref, const FloatAdmPlane &dist)
{
    return ReferenceSchedule(width, height, bit_depth, opts).score(ref, dist);
}

} // namespace testsupport
