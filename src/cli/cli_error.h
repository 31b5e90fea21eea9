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

/* Errors the tool reports to the user: a message, then exit status 1. */

#ifndef FLOAT_ADM_CLI_ERROR_H
#define FLOAT_ADM_CLI_ERROR_H

#include <stdexcept>
#include <string>

/** A user-facing error; what() is the whole message, without the program name. */
class CliError : public std::runtime_error {
public:
    explicit CliError(const std::string &message) : std::runtime_error(message) {}
};

/** printf into a std::string. */
std::string string_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif /* FLOAT_ADM_CLI_ERROR_H */
