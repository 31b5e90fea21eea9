/*
 * libFuzzer target: float_adm_score's arguments and file reading.
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

/*
 * The tool's own main (src/cli/main.cpp, built with -Dmain=float_adm_score_main)
 * runs on an input of three parts separated by a line "====":
 *
 *   --reference
 *   r.y4m            one argument per line
 *   ...
 *   ====
 *   bytes of the reference file (written as r.y4m and r.yuv)
 *   ====
 *   bytes of the distorted file (d.y4m and d.yuv; absent: same as the reference)
 *
 * It runs in a private temporary directory; arguments with a '/' are dropped,
 * so every path the tool opens or writes stays inside it.  The tool must
 * return 0 or 1 (a message), never crash; output goes nowhere.
 */

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int float_adm_score_main(int argc, char **argv);

namespace {

const std::string separator = "\n====\n";

void write_file(const char *name, const std::string &bytes)
{
    FILE *file = std::fopen(name, "wb");
    if (!file || std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size() ||
        std::fclose(file) != 0)
        std::abort();
}

/* The next part up to the separator (or the end); pos moves past it. */
std::string next_part(const std::string &input, size_t &pos)
{
    const size_t end = input.find(separator, pos);
    const std::string part = input.substr(pos, end == std::string::npos ? std::string::npos
                                                                       : end - pos);
    pos = end == std::string::npos ? input.size() : end + separator.size();
    return part;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    char dir[] = "/tmp/fuzz_cli.XXXXXX";
    if (!mkdtemp(dir) || chdir(dir) != 0)
        std::abort();
    /* The per-frame table and --help go nowhere. */
    if (!std::freopen("/dev/null", "w", stdout))
        std::abort();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    size_t pos = 0;
    const std::string args = next_part(input, pos);
    const std::string reference = next_part(input, pos);
    const bool has_distorted = pos < input.size();
    const std::string distorted = has_distorted ? next_part(input, pos) : reference;

    for (const char *name : {"r.y4m", "r.yuv"})
        write_file(name, reference);
    for (const char *name : {"d.y4m", "d.yuv"})
        write_file(name, distorted);

    std::vector<std::string> arguments = {"float_adm_score"};
    size_t start = 0;
    while (start < args.size()) {
        size_t end = args.find('\n', start);
        if (end == std::string::npos)
            end = args.size();
        const std::string argument = args.substr(start, end - start);
        if (argument.find('/') == std::string::npos && argument.find('\0') == std::string::npos)
            arguments.push_back(argument);
        start = end + 1;
    }
    std::vector<char *> argv;
    for (std::string &argument : arguments)
        argv.push_back(&argument[0]);
    argv.push_back(nullptr);

    const int ret = float_adm_score_main(static_cast<int>(arguments.size()), argv.data());
    if (ret != 0 && ret != 1)
        std::abort();
    return 0;
}
