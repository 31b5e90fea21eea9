/*
 * Comparing scores bit for bit.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TESTS_SUPPORT_SCORES_H
#define TESTS_SUPPORT_SCORES_H

#include <cstdio>
#include <cstring>
#include <string>

#include "float_adm.h"

namespace testsupport {

/* How many of the 18 outputs differ in any of their 64 bits; the first three into
 * *which (when given) as "name a vs b". */
inline int differing_outputs(const FloatAdmScores &a, const FloatAdmScores &b,
                             std::string *which = nullptr)
{
    int n = 0;
    for (int k = 0; k < FLOAT_ADM_NUM_DEBUG_OUTPUTS; k++) {
        const double x = float_adm_output_value(&a, k), y = float_adm_output_value(&b, k);
        if (memcmp(&x, &y, sizeof(x)) == 0)
            continue;
        if (which && n < 3) {
            char buf[128];
            snprintf(buf, sizeof(buf), "%s%s %.17g vs %.17g", n ? ", " : "",
                     float_adm_output_name(k), x, y);
            *which += buf;
        }
        n++;
    }
    return n;
}

} // namespace testsupport

#endif /* TESTS_SUPPORT_SCORES_H */
