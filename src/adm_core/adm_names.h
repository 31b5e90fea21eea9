/*
 * float_adm: the names libvmaf gives the outputs (see float_adm.h).
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
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef ADM_NAMES_H
#define ADM_NAMES_H

#include <string>
#include <vector>

#include "float_adm.h"

namespace adm {

/* libvmaf's names of the first num_outputs outputs for these options. */
std::vector<std::string> output_names(const FloatAdmOptions &opts, int num_outputs);

} // namespace adm

#endif /* ADM_NAMES_H */
