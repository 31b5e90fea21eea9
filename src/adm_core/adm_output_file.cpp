/*
 * float_adm: a file written whole, one run's (adm::OutputFile, adm_output_policy.h): a
 * temporary beside the path, locked for the run, renamed into place at its end.
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
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "adm_error_message.h"
#include "adm_output_policy.h"
#include "float_adm.h"

namespace {

/* .NAME.tmp beside path: one name per path, so that every writer of the path meets
 * the others' lock there. */
std::string temporary_of(const std::string &path)
{
    const size_t slash = path.find_last_of('/');
    const std::string directory = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    return directory + "." + path.substr(slash + 1) + ".tmp";
}

std::string base_name(const std::string &path) { return path.substr(path.find_last_of('/') + 1); }

bool same_inode(const struct stat &a, const struct stat &b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The process holding a flock on the file st describes, from the kernel's table of
 * locks; -1 where it is not known. */
long lock_holder(const struct stat &st)
{
    FILE *locks = std::fopen("/proc/locks", "re");
    if (!locks)
        return -1;
    long holder = -1;
    char line[256];
    while (holder < 0 && std::fgets(line, sizeof(line), locks)) {
        char type[16];
        long pid;
        unsigned major_number, minor_number;
        unsigned long inode;
        /* "1: FLOCK  ADVISORY  WRITE 1234 fe:00:5678 0 EOF"; waiters have "->". */
        if (!std::strstr(line, "->") &&
            std::sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%lu", type, &pid, &major_number,
                        &minor_number, &inode) == 5 &&
            !std::strcmp(type, "FLOCK") && major_number == major(st.st_dev) &&
            minor_number == minor(st.st_dev) && inode == st.st_ino)
            holder = pid;
    }
    std::fclose(locks);
    return holder;
}

int refuse_busy(const std::string &path, const std::string &temporary, FloatAdmOutputKind kind,
                const struct stat &st, char *errbuf, size_t errbuf_size)
{
    const long holder = lock_holder(st);
    std::string who;
    if (holder == static_cast<long>(getpid()))
        who = "another writer in this process (" + std::to_string(holder) + ")";
    else if (holder > 0)
        who = "process " + std::to_string(holder);
    else
        who = "another process";
    adm::format_error(errbuf, errbuf_size,
                      "%s: refusing to write the %s there: %s is writing it (it holds the lock "
                      "on %s); one writer at a time: give this run another path, or wait",
                      path.c_str(), adm::output_kind_name(kind), who.c_str(),
                      base_name(temporary).c_str());
    return FLOAT_ADM_ERROR_BUSY;
}

int cannot_write(const std::string &path, const char *what, int err, char *errbuf,
                 size_t errbuf_size)
{
    adm::format_error(errbuf, errbuf_size, "%s: %s: %s", path.c_str(), what,
                      std::strerror(err ? err : EIO));
    return FLOAT_ADM_ERROR_IO;
}

/* Opens and locks the temporary of path, taking over one a dead writer left; the
 * descriptor, or an error with a message.  A temporary that a link, another kind of
 * file, a file with another name too, or another program's file holds is refused. */
int open_temporary(const std::string &path, const std::string &temporary, FloatAdmOutputKind kind,
                   char *errbuf, size_t errbuf_size)
{
    /* A writer that renames its temporary between our open and our lock leaves us an
     * inode no longer named so: look again. */
    for (int attempt = 0; attempt < 8; attempt++) {
        const int fd = open(temporary.c_str(),
                            O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
        if (fd < 0) {
            if (errno == ELOOP)
                adm::format_error(errbuf, errbuf_size,
                                  "%s: refusing to write the %s there: its temporary %s is a "
                                  "symbolic link; remove it",
                                  path.c_str(), adm::output_kind_name(kind),
                                  base_name(temporary).c_str());
            return errno == ELOOP ? FLOAT_ADM_ERROR_OUTPUT_SYMLINK
                                  : cannot_write(path, "cannot write", errno, errbuf, errbuf_size);
        }
        struct stat st, named;
        if (fstat(fd, &st) != 0) {
            const int err = errno;
            close(fd);
            return cannot_write(path, "cannot write", err, errbuf, errbuf_size);
        }
        std::string refused;
        if (!S_ISREG(st.st_mode)) {
            refused = "is not a regular file";
        } else if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int err = errno;
            close(fd);
            if (err == EWOULDBLOCK)
                return refuse_busy(path, temporary, kind, st, errbuf, errbuf_size);
            return cannot_write(path, "cannot lock its temporary", err, errbuf, errbuf_size);
        } else if (lstat(temporary.c_str(), &named) != 0 || !same_inode(st, named)) {
            close(fd);
            continue;
        } else if (st.st_nlink != 1) {
            refused = "has another name too (a hard link), which writing would change";
        } else if (st.st_size > 0 && !adm::holds_project_file(temporary.c_str(), kind)) {
            refused = std::string("is not a float_adm ") + adm::output_kind_name(kind);
        }
        if (!refused.empty()) {
            close(fd);
            adm::format_error(errbuf, errbuf_size,
                              "%s: refusing to write the %s there: its temporary %s %s; "
                              "remove it",
                              path.c_str(), adm::output_kind_name(kind),
                              base_name(temporary).c_str(), refused.c_str());
            return FLOAT_ADM_ERROR_OUTPUT_NOT_OURS;
        }
        if (ftruncate(fd, 0) != 0) {
            const int err = errno;
            close(fd);
            return cannot_write(path, "cannot write", err, errbuf, errbuf_size);
        }
        return fd;
    }
    return cannot_write(path, "cannot lock its temporary", EAGAIN, errbuf, errbuf_size);
}

/* A file without a name, for bytes that go elsewhere at the end (tmpfile's directory). */
int unnamed_file()
{
    FILE *file = std::tmpfile();
    if (!file)
        return -1;
    const int fd = fcntl(fileno(file), F_DUPFD_CLOEXEC, 0);
    const int err = errno;
    std::fclose(file);
    errno = err;
    return fd;
}

} // namespace

namespace adm {

/* The whole file, from the unnamed temporary, to the FIFO or device at path_: opened
 * now (a FIFO waits here for its reader), written as it stands. */
int OutputFile::write_at_end(char *errbuf, size_t errbuf_size)
{
    const int out = open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (out < 0)
        return cannot_write(path_, "cannot write", errno, errbuf, errbuf_size);
    struct stat st;
    if (fstat(out, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        close(out);
        adm::format_error(errbuf, errbuf_size,
                          "%s: it is no longer a FIFO or a device; the %s is not written",
                          path_.c_str(), output_kind_name(kind_));
        return FLOAT_ADM_ERROR_OUTPUT_SHARED;
    }
    char buffer[65536];
    off_t at = 0;
    int err = 0;
    for (;;) {
        const ssize_t got = pread(fd_, buffer, sizeof(buffer), at);
        if (got <= 0) {
            err = got < 0 ? errno : 0;
            break;
        }
        for (ssize_t done = 0; done < got && !err;) {
            const ssize_t n = write(out, buffer + done, static_cast<size_t>(got - done));
            if (n > 0)
                done += n;
            else if (n == 0 || errno != EINTR)
                err = n == 0 ? EIO : errno;
        }
        if (err)
            break;
        at += got;
    }
    if (close(out) != 0 && !err)
        err = errno;
    if (err)
        return cannot_write(path_, "cannot write", err, errbuf, errbuf_size);
    close(fd_);
    fd_ = -1;
    return 0;
}

int OutputFile::begin(const char *path, FloatAdmOutputKind kind,
                      const std::vector<FileIdentity> &inputs, char *errbuf, size_t errbuf_size,
                      OutputRule rule)
{
    discard();
    struct stat link;
    std::string file = path ? path : "";
    const int target = rule == OutputRule::policy
                           ? check_output(path, kind, inputs, &link, errbuf, errbuf_size)
                           : check_any_file(path, kind, &file, errbuf, errbuf_size);
    if (target < 0)
        return target;
    path_ = file;
    kind_ = kind;
    target_ = target;
    if (target == FLOAT_ADM_TARGET_STDOUT) {
        fd_ = STDOUT_FILENO;
        return target;
    }
    if (target == FLOAT_ADM_TARGET_DISCARD) {
        fd_ = open(path, O_WRONLY | O_CLOEXEC);
        return fd_ < 0 ? cannot_write(path_, "cannot write", errno, errbuf, errbuf_size) : target;
    }
    if (target == kTargetAtEnd) {
        fd_ = unnamed_file();
        return fd_ < 0
                   ? cannot_write(path_, "cannot make a temporary file", errno, errbuf, errbuf_size)
                   : target;
    }
    const std::string temporary = temporary_of(path_);
    const int fd = open_temporary(path_, temporary, kind, errbuf, errbuf_size);
    if (fd < 0)
        return fd;
    fd_ = fd;
    temporary_ = temporary;
    /* What the path is now: at the end it must still be so. */
    existed_ = lstat(path_.c_str(), &before_) == 0;
    return target;
}

int OutputFile::check_unchanged(char *errbuf, size_t errbuf_size)
{
    if (!pending())
        return 0;
    struct stat now, mine, named;
    if (fstat(fd_, &mine) != 0 || fsync(fd_) != 0)
        return cannot_write(path_, "cannot write", errno, errbuf, errbuf_size);
    if (lstat(temporary_.c_str(), &named) != 0 || !same_inode(mine, named)) {
        adm::format_error(errbuf, errbuf_size,
                          "%s: its temporary %s was removed or replaced while the %s was "
                          "written; nothing is written",
                          path_.c_str(), base_name(temporary_).c_str(), output_kind_name(kind_));
        return FLOAT_ADM_ERROR_IO;
    }
    const bool exists = lstat(path_.c_str(), &now) == 0;
    /* Removed meanwhile: nothing to keep.  Made, or written, by another program since
     * the run began (ffmpeg's image muxer on the log's name): its file stays. */
    if (exists && (!existed_ || !same_inode(now, before_) || now.st_size != before_.st_size ||
                   now.st_mtim.tv_sec != before_.st_mtim.tv_sec ||
                   now.st_mtim.tv_nsec != before_.st_mtim.tv_nsec)) {
        adm::format_error(errbuf, errbuf_size,
                          "%s: refusing to replace it with the %s: another program %s it while "
                          "the %s was written (an output of the same run?); the %s is not "
                          "written",
                          path_.c_str(), output_kind_name(kind_), existed_ ? "wrote" : "made",
                          output_kind_name(kind_), output_kind_name(kind_));
        return FLOAT_ADM_ERROR_OUTPUT_SHARED;
    }
    return 0;
}

int OutputFile::land(char *errbuf, size_t errbuf_size)
{
    if (target_ == kTargetAtEnd && fd_ >= 0)
        return write_at_end(errbuf, errbuf_size);
    if (!pending())
        return 0;
    /* The replaced file's permissions go on. */
    if (existed_)
        fchmod(fd_, before_.st_mode & 07777);
    if (rename(temporary_.c_str(), path_.c_str()) != 0)
        return cannot_write(path_, "cannot rename its temporary into place", errno, errbuf,
                            errbuf_size);
    temporary_.clear();
    const int directory = open(parent_directory(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory >= 0) {
        fsync(directory);
        close(directory);
    }
    close(fd_);
    fd_ = -1;
    return 0;
}

int OutputFile::commit(char *errbuf, size_t errbuf_size)
{
    const int ret = check_unchanged(errbuf, errbuf_size);
    return ret < 0 ? ret : land(errbuf, errbuf_size);
}

void OutputFile::discard()
{
    if (fd_ >= 0 && !temporary_.empty()) {
        struct stat mine, named;
        if (fstat(fd_, &mine) == 0 && lstat(temporary_.c_str(), &named) == 0 &&
            same_inode(mine, named))
            unlink(temporary_.c_str());
    }
    if (fd_ > STDERR_FILENO)
        close(fd_);
    fd_ = -1;
    temporary_.clear();
    target_ = -1;
}

int remove_stale_temporary(const char *path, char *errbuf, size_t errbuf_size)
{
    if (!path || !*path) {
        format_error(errbuf, errbuf_size, "no path given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    const std::string temporary = temporary_of(path);
    const int fd = open(temporary.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT || errno == ELOOP
                   ? 0
                   : cannot_write(temporary, "cannot open", errno, errbuf, errbuf_size);
    struct stat st, named;
    int removed = 0;
    /* Its writer holds the lock while it lives; the name must still give what is locked. */
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 &&
        flock(fd, LOCK_EX | LOCK_NB) == 0 && lstat(temporary.c_str(), &named) == 0 &&
        same_inode(st, named) && unlink(temporary.c_str()) == 0)
        removed = 1;
    close(fd);
    return removed;
}

} // namespace adm
