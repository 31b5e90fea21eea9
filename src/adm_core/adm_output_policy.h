/*
 * float_adm: the output policy (float_adm_output_check, float_adm.h) as the core's
 * writers use it: checked, then opened without following a link planted since; and a
 * file written whole (OutputFile, adm_output_file.cpp): a locked temporary beside it,
 * renamed into place at the end.
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

/* Where OutputFile::begin lets a file go: by the output policy, or where a program's
 * own output file goes (FLOAT_ADM_LOG_ANY_FILE, float_adm.h). */
enum class OutputRule { policy, any_file };

/* A FIFO or a character device under OutputRule::any_file: written whole at the end. */
constexpr int kTargetAtEnd = FLOAT_ADM_TARGET_DISCARD + 1;

/* OutputRule::any_file: the target (kTargetAtEnd among them), *file the path of the
 * file to write (where symbolic links lead), or an error with a message. */
int check_any_file(const char *path, enum FloatAdmOutputKind kind, std::string *file, char *errbuf,
                   size_t errbuf_size);

/* Checks path by the policy, then opens it for writing: NEW is created (never
 * through a link), REPLACE opened without following links and truncated once it is
 * known to be the file checked, DISCARD opened as it is.  Returns the target
 * (*fd the descriptor, close-on-exec), or STDOUT with *fd -1, or an error with a
 * message. */
int open_output(const char *path, enum FloatAdmOutputKind kind, int *fd, char *errbuf,
                size_t errbuf_size);

/* "log", "map", ...: a kind as messages name it. */
const char *output_kind_name(enum FloatAdmOutputKind kind);

/* Whether the regular file at path holds one of this project's files of kind (the
 * policy's rule 8), known by its first bytes. */
bool holds_project_file(const char *path, enum FloatAdmOutputKind kind);

/*
 * A file written whole, one run's (float_adm_output_*, float_adm_run_files_begin_output):
 * begin() asks the policy, then for a new or replaced file makes the temporary
 * .NAME.tmp beside it, takes an exclusive flock on it (a writer of the same path
 * already there: FLOAT_ADM_ERROR_BUSY, naming its process), and checks that the name
 * still gives the file locked; a temporary a dead run left is taken over.  The bytes
 * go to fd(); commit() (or check_unchanged() then land(), for several files at once)
 * renames the temporary over the path, where the path is still what begin() saw; a
 * file never committed is removed with its temporary when this goes.  stdout and
 * /dev/null are written directly (fd() is 1, or /dev/null opened).  Under
 * OutputRule::any_file the path is where its links lead, and a FIFO or a device
 * (kTargetAtEnd) gets the bytes at commit(), from an unnamed temporary file.
 */
class OutputFile {
public:
    OutputFile() = default;
    ~OutputFile() { discard(); }
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;

    int begin(const char *path, enum FloatAdmOutputKind kind,
              const std::vector<FileIdentity> &inputs, char *errbuf, size_t errbuf_size,
              OutputRule rule = OutputRule::policy);
    int fd() const { return fd_; }
    int target() const { return target_; }
    const std::string &path() const { return path_; }
    enum FloatAdmOutputKind kind() const { return kind_; }
    /* A temporary to rename: a new or replaced file, not yet landed. */
    bool pending() const { return fd_ >= 0 && !temporary_.empty(); }
    /* The temporary written to, flushed to disk, and the path as begin() saw it (no
     * other program wrote it meanwhile): 0, or an error that says what changed. */
    int check_unchanged(char *errbuf, size_t errbuf_size);
    /* Renames the temporary over the path (after check_unchanged); a FIFO or a device
     * gets the bytes written. */
    int land(char *errbuf, size_t errbuf_size);
    int commit(char *errbuf, size_t errbuf_size);
    /* Removes the temporary of a file not landed, and lets the lock go. */
    void discard();

private:
    int write_at_end(char *errbuf, size_t errbuf_size);

    std::string path_, temporary_;
    enum FloatAdmOutputKind kind_ = FLOAT_ADM_OUTPUT_LOG;
    int target_ = -1;
    int fd_ = -1;
    bool existed_ = false;
    struct stat before_ {};
};

/* Removes the temporary of path that a dead writer left (one whose lock can be taken):
 * 1 removed, 0 none there or a live writer's, < 0 an error with a message. */
int remove_stale_temporary(const char *path, char *errbuf, size_t errbuf_size);

/* The file of an output a run began (adm_run_files.cpp), for a log written to it. */
OutputFile *output_file(FloatAdmOutput *output);
/* A log writing to output opens (+1) or closes (-1): the run commits none while one is open. */
void count_writer(FloatAdmOutput *output, int change);

} // namespace adm

#endif /* ADM_OUTPUT_POLICY_H */
