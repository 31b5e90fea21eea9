/*
 * float_adm: CSF weights per scale (computed once per context, on the host).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_CSF_H
#define ADM_CSF_H

#include "float_adm.h"

namespace adm {

enum CsfMode { kCsfWatson = 0, kCsfBarten = 1, kCsfDlmPaper = 2 };

/* The weight of the h and v bands and of the d band at one scale. */
struct CsfWeights {
    float hv;
    float d;
};

/* adm_csf_mode 1: Barten, 2: DLM paper, anything else: Watson; then adm_f1s/f2s overrides. */
CsfWeights csf_weights(const FloatAdmOptions &opts, int scale);

/* The three models, exposed for the unit tests. */
float watson_weight(int scale, int theta, double norm_view_dist, int display_height);
float barten_weight(int scale, double norm_view_dist, int display_height, double csf_scale);
float dlm_paper_weight(int scale, double norm_view_dist, int display_height, bool diagonal);

} // namespace adm

#endif /* ADM_CSF_H */
