/*
 * float_adm: the output policy, where any face may write a file
 * (float_adm_output_check, float_adm.h), and the project's files recognised by
 * content, each kind once.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "adm_error_message.h"
#include "adm_log.h"
#include "adm_output_policy.h"
#include "float_adm.h"

namespace {

const char *kind_name(FloatAdmOutputKind kind)
{
    switch (kind) {
    case FLOAT_ADM_OUTPUT_LOG: return "log";
    case FLOAT_ADM_OUTPUT_MAP: return "map";
    case FLOAT_ADM_OUTPUT_REPORT: return "report";
    case FLOAT_ADM_OUTPUT_SPEC: return "spec file";
    case FLOAT_ADM_OUTPUT_TABLE: return "table";
    }
    return "file";
}

/* The first bytes of a regular file (at most size); empty where it cannot be read.
 * follow: path may be a link (/proc/self/fd/1, stdout's file). */
std::string file_start(const char *path, size_t size, bool follow = false)
{
    std::string start(size, '\0');
    const int fd = open(path, O_RDONLY | (follow ? 0 : O_NOFOLLOW) | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return std::string();
    size_t got = 0;
    while (got < size) {
        const ssize_t n = read(fd, &start[got], size - got);
        if (n <= 0)
            break;
        got += static_cast<size_t>(n);
    }
    close(fd);
    start.resize(got);
    return start;
}

bool starts_with(const std::string &text, const char *prefix)
{
    return text.compare(0, std::strlen(prefix), prefix) == 0;
}

/* A log of any layout, libvmaf's included. */
bool holds_log(const std::string &start)
{
    for (const char *header : {"{\n  \"version\"", "<?xml", "<VMAF ", "Frame,"}) {
        if (starts_with(start, header))
            return true;
    }
    unsigned long first, next;
    int consumed = 0;
    return std::sscanf(start.c_str(), "{%lu}{%lu}frame: %n", &first, &next, &consumed) == 2 &&
           consumed > 0;
}

/* A PFM map, or the .npz np.savez_compressed(frames=..., loss=...) writes: a zip
 * whose first local header names "frames.npy". */
bool holds_map(const std::string &start)
{
    if (starts_with(start, "Pf\n"))
        return true;
    static const char member[] = "frames.npy";
    const size_t name_at = 30, length = sizeof(member) - 1;
    if (!starts_with(start, "PK\x03\x04") || start.size() < name_at + length)
        return false;
    const size_t name_length = static_cast<unsigned char>(start[26]) |
                               static_cast<size_t>(static_cast<unsigned char>(start[27])) << 8;
    return name_length == length && start.compare(name_at, length, member) == 0;
}

/* A rung's columns: what it is, how it was scored (the scaler, float_adm's options
 * given), and whether it lies on its ladder's convex hull of bitrate against
 * hull_metric. */
const char *const kTableColumns[] = {"source",  "ladder",      "label",  "file",         "codec",
                                     "width",   "height",      "frames", "bitrate_kbps", "scale",
                                     "options", "hull_metric", "on_hull"};

/* The metrics FFmpeg measures beside float_adm on the same frames. */
const char *const kTableMetrics[] = {"psnr_y", "psnr_avg", "ssim_y", "ssim", "vmaf"};

bool is_table_metric(const std::string &name)
{
    for (const char *metric : kTableMetrics) {
        if (name == metric)
            return true;
    }
    return false;
}

/* A column a ladder's table pools a metric into: NAME_POOL, NAME an output of
 * float_adm (with its options' suffix) or a metric of kTableMetrics. */
bool is_pooled_column(const std::string &column)
{
    for (const char *pool : {"_mean", "_harmonic_mean", "_min", "_max"}) {
        const size_t length = std::strlen(pool);
        if (column.size() <= length || column.compare(column.size() - length, length, pool))
            continue;
        const std::string name = column.substr(0, column.size() - length);
        FloatAdmOptions options;
        float_adm_options_default(&options);
        if (is_table_metric(name) || float_adm_output_parse_name(name.c_str(), &options) >= 0)
            return true;
    }
    return false;
}

/* A ladder's CSV table: its whole first line is the table's columns, then one or
 * more pooled outputs; a user's CSV with a column of its own is not ours. */
bool holds_csv_table(const std::string &start)
{
    const size_t end = start.find('\n');
    if (end == std::string::npos)
        return false;
    std::vector<std::string> columns;
    for (size_t at = 0; at <= end;) {
        const size_t comma = std::min(start.find(',', at), end);
        columns.push_back(start.substr(at, comma - at));
        at = comma + 1;
    }
    const size_t fixed = sizeof(kTableColumns) / sizeof(kTableColumns[0]);
    if (columns.size() <= fixed)
        return false;
    for (size_t i = 0; i < columns.size(); i++) {
        if (i < fixed ? columns[i] != kTableColumns[i] : !is_pooled_column(columns[i]))
            return false;
    }
    return true;
}

bool is_ours(const char *path, FloatAdmOutputKind kind, bool follow = false)
{
    switch (kind) {
    case FLOAT_ADM_OUTPUT_LOG: return holds_log(file_start(path, 64, follow));
    case FLOAT_ADM_OUTPUT_MAP: return holds_map(file_start(path, 64, follow));
    case FLOAT_ADM_OUTPUT_REPORT: {
        const std::string start = file_start(path, 2048, follow);
        return starts_with(start, "<!DOCTYPE html>") &&
               start.find("<meta name=\"generator\" content=\"float_adm report\">") !=
                   std::string::npos;
    }
    case FLOAT_ADM_OUTPUT_SPEC: {
        const std::string start = file_start(path, 65536, follow);
        return starts_with(start, "{") && start.find("\"float_adm_spec\": 1") != std::string::npos;
    }
    case FLOAT_ADM_OUTPUT_TABLE: {
        const std::string start = file_start(path, 65536, follow);
        return (starts_with(start, "{") &&
                start.find("\"float_adm_table\": 1") != std::string::npos) ||
               holds_csv_table(start);
    }
    }
    return false;
}

bool same_file(const struct stat &a, const struct stat &b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The null device, by its device number (a copy of /dev/null elsewhere is one too). */
bool is_null_device(const struct stat &st)
{
    struct stat null;
    return S_ISCHR(st.st_mode) && stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
           st.st_rdev == null.st_rdev;
}

/* Magic numbers that linux/magic.h does not export: the kernel's own, from
 * ipc/mqueue.c, fs/configfs/mount.c and fs/fuse/control.c. */
#ifndef MQUEUE_MAGIC
#define MQUEUE_MAGIC 0x19800202
#endif
#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC 0x62656570
#endif
#ifndef FUSECTL_MAGIC
#define FUSECTL_MAGIC 0x65735543
#endif

/* The kernel's file systems, whose "files" are settings and views, never data:
 * /proc/self/comm is a regular file of size 0, a name made on mqueue is a message
 * queue. */
const char *kernel_file_system(const char *path)
{
    struct statfs fs;
    if (statfs(path, &fs) != 0)
        return nullptr;
    static const struct {
        unsigned long magic;
        const char *name;
    } kernel[] = {
        {PROC_SUPER_MAGIC, "proc"},      {SYSFS_MAGIC, "sysfs"},
        {DEVPTS_SUPER_MAGIC, "devpts"},  {DEBUGFS_MAGIC, "debugfs"},
        {TRACEFS_MAGIC, "tracefs"},      {SECURITYFS_MAGIC, "securityfs"},
        {CGROUP_SUPER_MAGIC, "cgroup"},  {CGROUP2_SUPER_MAGIC, "cgroup2"},
        {BINFMTFS_MAGIC, "binfmt_misc"}, {BPF_FS_MAGIC, "bpf"},
        {PSTOREFS_MAGIC, "pstore"},      {EFIVARFS_MAGIC, "efivarfs"},
        {MQUEUE_MAGIC, "mqueue"},        {CONFIGFS_MAGIC, "configfs"},
        {FUSECTL_MAGIC, "fusectl"},      {NSFS_MAGIC, "nsfs"},
        {SELINUX_MAGIC, "selinuxfs"},
    };
    for (const auto &known : kernel) {
        if (static_cast<unsigned long>(fs.f_type) == known.magic)
            return known.name;
    }
    return nullptr;
}

const char *file_type(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    return "not a regular file";
}

int refuse(int err, const char *path, FloatAdmOutputKind kind, const std::string &why, char *errbuf,
           size_t errbuf_size)
{
    adm::format_error(errbuf, errbuf_size, "%s: refusing to write the %s there: %s", path,
                      kind_name(kind), why.c_str());
    return err;
}

int refuse_kernel_file(const char *path, const char *file_system, FloatAdmOutputKind kind,
                       char *errbuf, size_t errbuf_size)
{
    return refuse(FLOAT_ADM_ERROR_OUTPUT_NOT_FILE, path, kind,
                  std::string("it is on the kernel's ") + file_system +
                      " file system, a setting or a view, not a file of data",
                  errbuf, errbuf_size);
}

/* stdout redirected onto a regular file that holds data already: a file written to
 * stdout would be appended to another of ours (">> log") or overwrite one in place
 * and leave its tail ("1<> log"); 0 where stdout may take it. */
int refuse_stdout_file(const char *path, FloatAdmOutputKind kind, char *errbuf, size_t errbuf_size)
{
    struct stat out;
    if (fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode) || out.st_size == 0)
        return 0;
    const int flags = fcntl(STDOUT_FILENO, F_GETFL);
    const off_t at = lseek(STDOUT_FILENO, 0, SEEK_CUR);
    const bool in_place = flags >= 0 && !(flags & O_APPEND) && at >= 0 && at < out.st_size;
    if (in_place)
        return refuse(FLOAT_ADM_ERROR_OUTPUT_SHARED, path, kind,
                      "stdout is redirected onto a file that holds data already without "
                      "truncating it (1<>), which the " +
                          std::string(kind_name(kind)) +
                          " would overwrite in place, leaving its tail; redirect stdout to a "
                          "new or empty file (>)",
                      errbuf, errbuf_size);
    if (is_ours("/proc/self/fd/1", kind, true))
        return refuse(FLOAT_ADM_ERROR_OUTPUT_SHARED, path, kind,
                      "stdout is redirected onto a float_adm " + std::string(kind_name(kind)) +
                          " already (>>), which this one would be appended to; redirect "
                          "stdout to a new or empty file (>)",
                      errbuf, errbuf_size);
    return 0;
}

} // namespace

const char *adm::output_kind_name(FloatAdmOutputKind kind) { return kind_name(kind); }

bool adm::holds_project_file(const char *path, FloatAdmOutputKind kind)
{
    return is_ours(path, kind);
}

/* The policy; *link the lstat of the path where it exists. */
int adm::check_output(const char *path, FloatAdmOutputKind kind,
                      const std::vector<adm::FileIdentity> &inputs, struct stat *link, char *errbuf,
                      size_t errbuf_size)
{
    if (!path || !*path) {
        adm::format_error(errbuf, errbuf_size, "no %s path given", kind_name(kind));
        return FLOAT_ADM_ERROR_INVALID;
    }
    if (kind < FLOAT_ADM_OUTPUT_LOG || kind > FLOAT_ADM_OUTPUT_TABLE) {
        adm::format_error(errbuf, errbuf_size, "unknown output kind %d", static_cast<int>(kind));
        return FLOAT_ADM_ERROR_INVALID;
    }
    if (!std::strcmp(path, "-")) {
        const int refused = refuse_stdout_file(path, kind, errbuf, errbuf_size);
        return refused < 0 ? refused : FLOAT_ADM_TARGET_STDOUT;
    }
    if (lstat(path, link) != 0) {
        if (errno == ENOENT) {
            const char *file_system = kernel_file_system(adm::parent_directory(path).c_str());
            if (file_system)
                return refuse_kernel_file(path, file_system, kind, errbuf, errbuf_size);
            return FLOAT_ADM_TARGET_NEW;
        }
        adm::format_error(errbuf, errbuf_size, "%s: cannot write: %s", path, std::strerror(errno));
        return FLOAT_ADM_ERROR_IO;
    }
    struct stat st, out;
    const bool resolves = stat(path, &st) == 0;
    if (resolves && is_null_device(st))
        return FLOAT_ADM_TARGET_DISCARD;
    if (resolves && fstat(STDOUT_FILENO, &out) == 0 && same_file(st, out)) {
        const int refused = refuse_stdout_file(path, kind, errbuf, errbuf_size);
        return refused < 0 ? refused : FLOAT_ADM_TARGET_STDOUT;
    }
    if (S_ISLNK(link->st_mode)) {
        char target[512];
        const ssize_t n = readlink(path, target, sizeof(target) - 1);
        target[n > 0 ? n : 0] = '\0';
        return refuse(FLOAT_ADM_ERROR_OUTPUT_SYMLINK, path, kind,
                      std::string("it is a symbolic link") +
                          (resolves ? " (to " + std::string(target) + ")"
                                    : " that leads nowhere (to " + std::string(target) + ")") +
                          "; give the file's own path",
                      errbuf, errbuf_size);
    }
    if (const char *file_system = kernel_file_system(path))
        return refuse_kernel_file(path, file_system, kind, errbuf, errbuf_size);
    if (!S_ISREG(link->st_mode))
        return refuse(FLOAT_ADM_ERROR_OUTPUT_NOT_FILE, path, kind,
                      std::string("it is ") + file_type(link->st_mode) + ", not a regular file",
                      errbuf, errbuf_size);
    for (const FileIdentity &input : inputs) {
        if (input.device == link->st_dev && input.inode == link->st_ino)
            return refuse(FLOAT_ADM_ERROR_OUTPUT_INPUT, path, kind,
                          "it is an input of the run (" + input.name +
                              "), which would be destroyed",
                          errbuf, errbuf_size);
    }
    if (adm::open_in_process(*link, -1))
        return refuse(FLOAT_ADM_ERROR_OUTPUT_INPUT, path, kind,
                      "the file is open in this process (an input, an output or a log "
                      "of this run) and would be destroyed",
                      errbuf, errbuf_size);
    if (link->st_size == 0 || is_ours(path, kind))
        return FLOAT_ADM_TARGET_REPLACE;
    return refuse(FLOAT_ADM_ERROR_OUTPUT_NOT_OURS, path, kind,
                  std::string("it is not a float_adm ") + kind_name(kind) +
                      "; remove it first if it is to go",
                  errbuf, errbuf_size);
}

namespace {

/* The name of the file path's symbolic links lead to (path itself where it is none),
 * the last one named where it does not exist: a link's target is made as open(2)
 * would make it.  Only for a path that resolves or leads nowhere (stat: 0 or ENOENT). */
std::string followed(const std::string &path)
{
    std::string file = path;
    struct stat link;
    /* stat ended the chain, so it is no longer than the system's limit of links. */
    for (int hop = 0; hop < 64 && lstat(file.c_str(), &link) == 0 && S_ISLNK(link.st_mode); hop++) {
        std::vector<char> target(static_cast<size_t>(link.st_size > 0 ? link.st_size : 4095) + 1);
        const ssize_t n = readlink(file.c_str(), target.data(), target.size());
        if (n <= 0 || static_cast<size_t>(n) >= target.size())
            break;
        const std::string next(target.data(), static_cast<size_t>(n));
        file = next[0] == '/' ? next : adm::parent_directory(file) + "/" + next;
    }
    return file;
}

} // namespace

int adm::check_any_file(const char *path, FloatAdmOutputKind kind, std::string *file, char *errbuf,
                        size_t errbuf_size)
{
    if (!path || !*path) {
        adm::format_error(errbuf, errbuf_size, "no %s path given", kind_name(kind));
        return FLOAT_ADM_ERROR_INVALID;
    }
    if (!std::strcmp(path, "-"))
        return FLOAT_ADM_TARGET_STDOUT;
    struct stat st, out;
    if (stat(path, &st) != 0) {
        if (errno != ENOENT) {
            adm::format_error(errbuf, errbuf_size, "%s: cannot write: %s", path,
                              std::strerror(errno));
            return FLOAT_ADM_ERROR_IO;
        }
        *file = followed(path);
        return FLOAT_ADM_TARGET_NEW;
    }
    if (is_null_device(st))
        return FLOAT_ADM_TARGET_DISCARD;
    if (fstat(STDOUT_FILENO, &out) == 0 && same_file(st, out))
        return FLOAT_ADM_TARGET_STDOUT;
    /* Opening a FIFO waits for its reader: it is opened at the end. */
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
        return kTargetAtEnd;
    if (!S_ISREG(st.st_mode))
        return refuse(FLOAT_ADM_ERROR_OUTPUT_NOT_FILE, path, kind,
                      std::string("it is ") + file_type(st.st_mode) + ", not a regular file",
                      errbuf, errbuf_size);
    if (adm::open_in_process(st, -1))
        return refuse(FLOAT_ADM_ERROR_OUTPUT_INPUT, path, kind,
                      "the file is open in this process (an input, an output or a log "
                      "of this run) and would be destroyed",
                      errbuf, errbuf_size);
    *file = followed(path);
    return FLOAT_ADM_TARGET_REPLACE;
}

namespace {

int cannot_write(const char *path, int err, char *errbuf, size_t errbuf_size)
{
    adm::format_error(errbuf, errbuf_size, "%s: cannot write: %s", path,
                      std::strerror(err ? err : EIO));
    return FLOAT_ADM_ERROR_IO;
}

/* Opens what check allowed; -1 with errno where the file is no longer what was checked
 * (EAGAIN: look again). */
int open_checked(const char *path, int target, const struct stat &checked)
{
    if (target == FLOAT_ADM_TARGET_NEW)
        return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    const int flags = target == FLOAT_ADM_TARGET_REPLACE ? O_NOFOLLOW | O_NONBLOCK : 0;
    const int fd = open(path, O_WRONLY | O_CLOEXEC | flags);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        const int err = errno;
        if (fd >= 0)
            close(fd);
        errno = err == ELOOP || err == ENOENT || err == ENXIO ? EAGAIN : err;
        return -1;
    }
    const bool same = target == FLOAT_ADM_TARGET_DISCARD
                          ? is_null_device(st)
                          : S_ISREG(st.st_mode) && same_file(st, checked);
    if (!same || (target == FLOAT_ADM_TARGET_REPLACE && ftruncate(fd, 0) != 0)) {
        const int err = same ? errno : EAGAIN;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

} // namespace

namespace adm {

std::string parent_directory(const std::string &path)
{
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

int open_output(const char *path, enum FloatAdmOutputKind kind, int *fd, char *errbuf,
                size_t errbuf_size)
{
    *fd = -1;
    /* A file made, removed or swapped between the check and the open is looked at again. */
    for (int attempt = 0; attempt < 3; attempt++) {
        struct stat checked;
        const int target = check_output(path, kind, {}, &checked, errbuf, errbuf_size);
        if (target < 0 || target == FLOAT_ADM_TARGET_STDOUT)
            return target;
        *fd = open_checked(path, target, checked);
        if (*fd >= 0)
            return target;
        if (errno != EAGAIN && errno != EEXIST)
            return cannot_write(path, errno, errbuf, errbuf_size);
    }
    return cannot_write(path, EAGAIN, errbuf, errbuf_size);
}

} // namespace adm

extern "C" int float_adm_output_check(const char *path, enum FloatAdmOutputKind kind,
                                      const char *const *inputs, size_t nb_inputs, char *errbuf,
                                      size_t errbuf_size)
{
    try {
        std::vector<adm::FileIdentity> identities;
        for (size_t i = 0; inputs && i < nb_inputs; i++) {
            struct stat input;
            if (inputs[i] && stat(inputs[i], &input) == 0)
                identities.push_back({input.st_dev, input.st_ino, inputs[i]});
        }
        struct stat link;
        return adm::check_output(path, kind, identities, &link, errbuf, errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory checking an output path");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

extern "C" const char *float_adm_table_column(int index)
{
    return index >= 0 && index < static_cast<int>(sizeof(kTableColumns) / sizeof(kTableColumns[0]))
               ? kTableColumns[index]
               : nullptr;
}

extern "C" const char *float_adm_table_metric(int index)
{
    return index >= 0 && index < static_cast<int>(sizeof(kTableMetrics) / sizeof(kTableMetrics[0]))
               ? kTableMetrics[index]
               : nullptr;
}
