/*
 * The tests' oracle: the full-frame scalar schedule of the CPU core, stage by stage
 * over full-frame buffers as libvmaf runs it, on adm_arith.h's expressions.  The
 * library's own scalar level runs the row schedule of the vector levels instead;
 * every level is held to this one, bit for bit (as checkasm holds assembly to C).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TESTS_SUPPORT_REFERENCE_SCHEDULE_H
#define TESTS_SUPPORT_REFERENCE_SCHEDULE_H

#include "float_adm.h"

namespace testsupport {

/* The 18 outputs of one frame pair; the arguments must be ones a context accepts. */
FloatAdmScores reference_scores(int width, int height, int bit_depth, const FloatAdmOptions &opts,
                                const FloatAdmPlane &ref, const FloatAdmPlane &dist);

} // namespace testsupport

#endif /* TESTS_SUPPORT_REFERENCE_SCHEDULE_H */
