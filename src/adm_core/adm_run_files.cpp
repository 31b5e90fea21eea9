/*
 * float_adm: a run's files (float_adm_run_files_*, float_adm.h): every input known
 * by what it is before anything is written, one writer for each place written, and
 * the files written whole, all of them or none (float_adm_run_files_begin_output,
 * float_adm_run_files_commit; adm::OutputFile).
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

#include <cerrno>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adm_error_message.h"
#include "adm_map.h"
#include "adm_output_policy.h"
#include "float_adm.h"

namespace {

/* Where an output goes: stdout, a file that exists, or a name in a directory. */
struct OutputPlace {
    std::string key;
    std::string name;
};

std::string describe(const char *path, const char *label)
{
    return label && *label ? std::string(label) + " " + path : std::string(path);
}

/* A path as a name in a directory: the directory by identity where it exists. */
struct Name {
    std::string directory, base;
    std::string named; /* as the face named the file, for messages */
    bool output;
};

Name name_of(const std::string &path, const std::string &named, bool output)
{
    const std::string directory = adm::parent_directory(path);
    struct stat st;
    return {stat(directory.c_str(), &st) == 0
                ? std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino)
                : directory,
            path.substr(path.find_last_of('/') + 1), named, output};
}

/* The key of where a path that the policy allowed writes: one key per place, however
 * the place is named. */
std::string place_key(const char *path, int target)
{
    if (target == FLOAT_ADM_TARGET_STDOUT)
        return "stdout";
    struct stat st;
    if (target == FLOAT_ADM_TARGET_REPLACE && lstat(path, &st) == 0)
        return "file " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    const Name name = name_of(path, "", true);
    return "name " + name.directory + "/" + name.base;
}

/* A map pattern and a name it gives: the same directory, a base the pattern's base
 * gives.  (A pattern whose frame number lies in a directory is not compared.) */
bool pattern_gives(const Name &pattern, const Name &name)
{
    return pattern.directory == name.directory &&
           adm::map_pattern_names(pattern.base.c_str(), name.base);
}

/* The files already in a pattern's directory that it gives a name of, each asked of the
 * output policy as the map it would become, so that a pattern that would replace an
 * input (a file open in the process: ffmpeg's), a link or another program's file is
 * refused before the first map is written, not at its frame. */
int check_existing_maps(const std::string &pattern, const Name &where,
                        const std::vector<adm::FileIdentity> &inputs, char *errbuf,
                        size_t errbuf_size)
{
    const std::string directory = adm::parent_directory(pattern);
    DIR *dir = opendir(directory.c_str());
    if (!dir)
        return 0; /* a directory yet to be made holds no file */
    int ret = 0;
    while (const struct dirent *entry = readdir(dir)) {
        if (!adm::map_pattern_names(where.base.c_str(), entry->d_name))
            continue;
        const std::string path = pattern.find('/') == std::string::npos
                                     ? entry->d_name
                                     : directory + "/" + entry->d_name;
        struct stat link;
        ret = adm::check_output(path.c_str(), FLOAT_ADM_OUTPUT_MAP, inputs, &link, errbuf,
                                errbuf_size);
        if (ret < 0)
            break;
        ret = 0;
    }
    closedir(dir);
    return ret;
}

int refuse_pattern(const Name &pattern, const Name &name, char *errbuf, size_t errbuf_size)
{
    adm::format_error(errbuf, errbuf_size, "%s gives the name of %s, %s", pattern.named.c_str(),
                      name.named.c_str(),
                      name.output ? "another output of the run: one writer each"
                                  : "an input of the run, which would be destroyed");
    return name.output ? FLOAT_ADM_ERROR_OUTPUT_SHARED : FLOAT_ADM_ERROR_OUTPUT_INPUT;
}

} // namespace

/* An output being written: its file, and how many logs write to it now. */
struct FloatAdmOutput {
    adm::OutputFile file;
    std::string named;
    int writers = 0;
};

struct FloatAdmRunFiles {
    std::vector<adm::FileIdentity> inputs;
    std::vector<bool> input_is_stream;
    std::vector<OutputPlace> outputs;
    /* The files outputs replace, by identity, so that a later input is checked too. */
    std::vector<adm::FileIdentity> replaced;
    /* Every input and output by name, and the map patterns, each checked against the
     * other: a pattern's file names are known only as names. */
    std::vector<Name> names;
    std::vector<Name> map_patterns;
    /* The outputs begun, in order: committed together, or removed with the run. */
    std::vector<std::unique_ptr<FloatAdmOutput>> begun;

    int add_name(const Name &name, char *errbuf, size_t errbuf_size)
    {
        for (const Name &pattern : map_patterns) {
            if (pattern_gives(pattern, name))
                return refuse_pattern(pattern, name, errbuf, errbuf_size);
        }
        names.push_back(name);
        return 0;
    }
};

extern "C" int float_adm_run_files_create(FloatAdmRunFiles **files)
{
    if (!files)
        return FLOAT_ADM_ERROR_INVALID;
    *files = new (std::nothrow) FloatAdmRunFiles();
    return *files ? 0 : FLOAT_ADM_ERROR_NOMEM;
}

extern "C" void float_adm_run_files_free(FloatAdmRunFiles **files)
{
    if (!files)
        return;
    delete *files;
    *files = nullptr;
}

extern "C" int float_adm_run_files_add_input(FloatAdmRunFiles *files, const char *path,
                                             const char *label, char *errbuf, size_t errbuf_size)
{
    if (!files || !path || !*path) {
        adm::format_error(errbuf, errbuf_size, "no input path given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    try {
        const std::string named = describe(path, label);
        struct stat st;
        const bool standard_input = !std::strcmp(path, "-");
        const int got = standard_input ? fstat(STDIN_FILENO, &st) : stat(path, &st);
        if (got != 0) {
            adm::format_error(errbuf, errbuf_size, "%s: cannot read: %s", named.c_str(),
                              std::strerror(errno));
            return FLOAT_ADM_ERROR_IO;
        }
        /* "-" is read through the one descriptor, whatever stdin is: a stream too. */
        const bool stream = standard_input || (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode));
        for (size_t i = 0; i < files->inputs.size(); i++) {
            const adm::FileIdentity &other = files->inputs[i];
            if (other.device != st.st_dev || other.inode != st.st_ino ||
                !(stream || files->input_is_stream[i]))
                continue;
            adm::format_error(errbuf, errbuf_size,
                              "%s and %s are one stream (a pipe, FIFO or device): two readers "
                              "would split its bytes between them; give each input its own",
                              other.name.c_str(), named.c_str());
            return FLOAT_ADM_ERROR_INPUT_SHARED;
        }
        /* stdout redirected to an input (">> input", "1<> input") would write into it,
         * whatever the face prints there. */
        struct stat out;
        if (S_ISREG(st.st_mode) && fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == st.st_dev &&
            out.st_ino == st.st_ino) {
            adm::format_error(errbuf, errbuf_size,
                              "%s is this run's standard output too (redirected to it), which "
                              "would be written into; send stdout elsewhere",
                              named.c_str());
            return FLOAT_ADM_ERROR_OUTPUT_INPUT;
        }
        for (const adm::FileIdentity &output : files->replaced) {
            if (output.device == st.st_dev && output.inode == st.st_ino) {
                adm::format_error(errbuf, errbuf_size,
                                  "%s is %s, an output of the run, which would be replaced",
                                  named.c_str(), output.name.c_str());
                return FLOAT_ADM_ERROR_OUTPUT_INPUT;
            }
        }
        if (!standard_input) {
            const int ret = files->add_name(name_of(path, named, false), errbuf, errbuf_size);
            if (ret < 0)
                return ret;
        }
        files->inputs.push_back({st.st_dev, st.st_ino, named});
        files->input_is_stream.push_back(stream);
        return 0;
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory registering an input");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

extern "C" int float_adm_run_files_add_output(FloatAdmRunFiles *files, const char *path,
                                              enum FloatAdmOutputKind kind, const char *label,
                                              char *errbuf, size_t errbuf_size)
{
    if (!files) {
        adm::format_error(errbuf, errbuf_size, "no run given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    try {
        struct stat link;
        const int target = adm::check_output(path, kind, files->inputs, &link, errbuf, errbuf_size);
        if (target < 0 || target == FLOAT_ADM_TARGET_DISCARD)
            return target;
        const std::string named = describe(path, label);
        const std::string key = place_key(path, target);
        for (const OutputPlace &other : files->outputs) {
            if (other.key != key)
                continue;
            adm::format_error(errbuf, errbuf_size, "%s and %s both write to %s: one writer each",
                              other.name.c_str(), named.c_str(),
                              key == "stdout" ? "stdout" : "the same file");
            return FLOAT_ADM_ERROR_OUTPUT_SHARED;
        }
        if (key != "stdout") {
            const int ret = files->add_name(name_of(path, named, true), errbuf, errbuf_size);
            if (ret < 0)
                return ret;
        }
        files->outputs.push_back({key, named});
        if (target == FLOAT_ADM_TARGET_REPLACE)
            files->replaced.push_back({link.st_dev, link.st_ino, named});
        return target;
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory registering an output");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

extern "C" int float_adm_run_files_add_map_pattern(FloatAdmRunFiles *files, const char *pattern,
                                                   const char *label, char *errbuf,
                                                   size_t errbuf_size)
{
    if (!files) {
        adm::format_error(errbuf, errbuf_size, "no run given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    const int ret = float_adm_map_pattern_check(pattern, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    try {
        Name where = name_of(pattern, describe(pattern, label), true);
        if (adm::parent_directory(pattern).find('%') != std::string::npos)
            return 0;
        for (const Name &name : files->names) {
            if (pattern_gives(where, name))
                return refuse_pattern(where, name, errbuf, errbuf_size);
        }
        const int existing = check_existing_maps(pattern, where, files->inputs, errbuf,
                                                 errbuf_size);
        if (existing < 0)
            return existing;
        files->map_patterns.push_back(where);
        return 0;
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory registering a map pattern");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

extern "C" int float_adm_run_files_stdout_taken(const FloatAdmRunFiles *files)
{
    if (!files)
        return 0;
    for (const OutputPlace &output : files->outputs) {
        if (output.key == "stdout")
            return 1;
    }
    return 0;
}

extern "C" int float_adm_run_files_begin_output(FloatAdmRunFiles *files, const char *path,
                                                enum FloatAdmOutputKind kind, const char *label,
                                                FloatAdmOutput **output, char *errbuf,
                                                size_t errbuf_size)
{
    if (!files || !output) {
        adm::format_error(errbuf, errbuf_size, "no run or no output pointer given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    *output = nullptr;
    const size_t outputs = files->outputs.size(), names = files->names.size();
    const size_t replaced = files->replaced.size();
    const int target = float_adm_run_files_add_output(files, path, kind, label, errbuf,
                                                      errbuf_size);
    if (target < 0)
        return target;
    try {
        std::unique_ptr<FloatAdmOutput> begun(new FloatAdmOutput);
        begun->named = describe(path, label);
        const int ret = begun->file.begin(path, kind, files->inputs, errbuf, errbuf_size);
        if (ret < 0) {
            /* Not begun, not the run's: a later try of the path is no second writer. */
            files->outputs.resize(outputs);
            files->names.resize(names, Name{});
            files->replaced.resize(replaced);
            return ret;
        }
        *output = begun.get();
        files->begun.push_back(std::move(begun));
        return ret;
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory beginning an output");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

extern "C" int float_adm_output_fd(const FloatAdmOutput *output)
{
    return output ? output->file.fd() : -1;
}

extern "C" int float_adm_run_files_commit(FloatAdmRunFiles *files, char *errbuf, size_t errbuf_size)
{
    if (!files) {
        adm::format_error(errbuf, errbuf_size, "no run given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    for (const auto &output : files->begun) {
        if (output->writers) {
            adm::format_error(errbuf, errbuf_size, "%s: a log still writes it: close it first",
                              output->named.c_str());
            return FLOAT_ADM_ERROR_INVALID;
        }
    }
    /* Every file checked before any is renamed: one that cannot land keeps the others
     * out too. */
    for (const auto &output : files->begun) {
        const int ret = output->file.check_unchanged(errbuf, errbuf_size);
        if (ret < 0)
            return ret;
    }
    for (const auto &output : files->begun) {
        const int ret = output->file.land(errbuf, errbuf_size);
        if (ret < 0)
            return ret;
    }
    return 0;
}

extern "C" int float_adm_output_remove_stale(const char *path, char *errbuf, size_t errbuf_size)
{
    try {
        return adm::remove_stale_temporary(path, errbuf, errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory removing a temporary");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

/* What a log writing to an output (adm_log.cpp) needs of it. */
adm::OutputFile *adm::output_file(FloatAdmOutput *output) { return &output->file; }

void adm::count_writer(FloatAdmOutput *output, int change) { output->writers += change; }
