/*
 * float_adm_score: scores raw YUV and y4m files with the float ADM core.
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

/* float_adm_score's --help and --list-options. */

#ifndef FLOAT_ADM_CLI_USAGE_H
#define FLOAT_ADM_CLI_USAGE_H

#include <cstdio>

/** --help: the usage, the pixel formats and the option table. */
void print_usage(FILE *out);

/** --list-options: the option table for programs, one option a line, tab-separated
 *  name, alias (may be empty), type, default, min, max, each number exactly. */
void print_option_list(FILE *out);

#endif /* FLOAT_ADM_CLI_USAGE_H */
