/*
 * float_adm: the output policy (float_adm_output_check, float_adm.h) as the core's
 * writers use it: checked, then opened without following a link planted since.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_OUTPUT_POLICY_H
#define ADM_OUTPUT_POLICY_H

#include <stddef.h>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "float_adm.h"

namespace adm {

/* What a file is, whatever its name: an input of a run, named as its face named it. */
struct FileIdentity {
    dev_t device;
    ino_t inode;
    std::string name;
};

/* The directory a path names a file in ("." for a bare name). */
std::string parent_directory(const std::string &path);

/* The policy (float_adm_output_check) against inputs known by identity; *link is
 * the lstat of path where it exists. */
int check_output(const char *path, enum FloatAdmOutputKind kind,
                 const std::vector<FileIdentity> &inputs, struct stat *link, char *errbuf,
                 size_t errbuf_size);

/* Checks path by the policy, then opens it for writing: NEW is created (never
 * through a link), REPLACE opened without following links and truncated once it is
 * known to be the file checked, DISCARD opened as it is.  Returns the target
 * (*fd the descriptor, close-on-exec), or STDOUT with *fd -1, or an error with a
 * message. */
int open_output(const char *path, enum FloatAdmOutputKind kind, int *fd, char *errbuf,
                size_t errbuf_size);

} // namespace adm

#endif /* ADM_OUTPUT_POLICY_H */
