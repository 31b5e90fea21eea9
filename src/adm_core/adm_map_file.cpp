/*
 * float_adm: map files: the pattern of their names and the PFM a frame's loss is
 * written to (float_adm.h, "Maps"); float_adm_score and the filter write with it.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <strings.h>
#include <unistd.h>

#include "adm_error_message.h"
#include "adm_map.h"
#include "adm_output_policy.h"
#include "float_adm.h"

namespace {

/* The most digits a frame number is padded to (UINT64_MAX has 20). */
constexpr int kMaxPadding = 20;

/* A pattern cut at its conversion: text before, the padding, text after ("%%" undone). */
struct Pattern {
    std::string before, after;
    int width = 0; /* %0Nd: N; %d: 0 */
};

int parse_pattern(const char *pattern, Pattern *out, char *errbuf, size_t errbuf_size)
{
    if (!pattern || !*pattern) {
        adm::format_error(errbuf, errbuf_size,
                          "map pattern: empty; give a file name with %%d "
                          "or %%05d for the frame number");
        return FLOAT_ADM_ERROR_INVALID;
    }
    int conversions = 0;
    for (const char *c = pattern; *c; c++) {
        std::string &text = conversions ? out->after : out->before;
        if (*c != '%') {
            text += *c;
            continue;
        }
        if (c[1] == '%') {
            text += '%';
            c++;
            continue;
        }
        const char *spec = c + 1;
        int width = 0;
        if (*spec == '0') {
            spec++;
            while (*spec >= '0' && *spec <= '9' && width <= kMaxPadding)
                width = width * 10 + (*spec++ - '0');
            if (width < 1 || width > kMaxPadding) {
                adm::format_error(errbuf, errbuf_size,
                                  "map pattern '%s': the frame number's padding must be 1 to "
                                  "%d digits (%%0Nd)",
                                  pattern, kMaxPadding);
                return FLOAT_ADM_ERROR_INVALID;
            }
        }
        if (*spec != 'd') {
            adm::format_error(errbuf, errbuf_size,
                              "map pattern '%s': only %%d or %%0Nd (the frame number) and %%%% "
                              "may follow a '%%'",
                              pattern);
            return FLOAT_ADM_ERROR_INVALID;
        }
        if (++conversions > 1) {
            adm::format_error(errbuf, errbuf_size,
                              "map pattern '%s': more than one frame number conversion", pattern);
            return FLOAT_ADM_ERROR_INVALID;
        }
        out->width = width;
        c = spec;
    }
    if (!conversions) {
        adm::format_error(errbuf, errbuf_size,
                          "map pattern '%s': no frame number (%%d or %%05d): every frame "
                          "would overwrite the last",
                          pattern);
        return FLOAT_ADM_ERROR_INVALID;
    }
    /* The files are PFM whatever they are called: a picture format's extension would
     * label PFM data as what it is not, and viewers would fail on it or misread it. */
    static const char *const kPictureExtensions[] = {".png", ".jpg",  ".jpeg", ".bmp", ".gif",
                                                     ".tif", ".tiff", ".webp", ".exr", ".ppm",
                                                     ".pgm", ".pnm",  ".avif"};
    const std::string &name = out->after; /* the names' ends */
    for (const char *ext : kPictureExtensions) {
        const size_t n = std::strlen(ext);
        if (name.size() >= n && strcasecmp(name.c_str() + name.size() - n, ext) == 0) {
            adm::format_error(errbuf, errbuf_size,
                              "map pattern '%s': the maps are PFM files, not %s: name them "
                              ".pfm (pictures of the maps: ffmpeg's float_adm_map filter, "
                              "e.g. -lavfi float_adm_map maps/%%05d.png, or the report)",
                              pattern, ext + 1);
            return FLOAT_ADM_ERROR_INVALID;
        }
    }
    return 0;
}

int cannot_write(const std::string &path, int err, char *errbuf, size_t errbuf_size)
{
    adm::format_error(errbuf, errbuf_size, "%s: cannot write: %s", path.c_str(),
                      std::strerror(err ? err : EIO));
    return FLOAT_ADM_ERROR_IO;
}

/* The PFM file's bytes: rows from the bottom of the picture up; -1.0: little-endian
 * floats. */
std::vector<uint8_t> pfm_bytes(const float *loss, int columns, int rows)
{
    char header[64];
    const int header_size = std::snprintf(header, sizeof(header), "Pf\n%d %d\n-1.0\n", columns,
                                          rows);
    std::vector<uint8_t> bytes((size_t)header_size + (size_t)columns * rows * 4);
    std::memcpy(bytes.data(), header, (size_t)header_size);
    uint8_t *out = bytes.data() + header_size;
    for (int r = rows - 1; r >= 0; r--) {
        for (int c = 0; c < columns; c++) {
            const float v = loss[(size_t)r * columns + c];
            uint32_t bits;
            std::memcpy(&bits, &v, sizeof(bits));
            for (int k = 0; k < 4; k++)
                *out++ = (uint8_t)(bits >> (8 * k));
        }
    }
    return bytes;
}

/* Writes the PFM to path, where the output policy allows a map (adm_output_policy.cpp),
 * at once; the bytes are made before the file is opened, so that nothing fails between. */
int write_pfm(const std::string &path, const float *loss, int columns, int rows, char *errbuf,
              size_t errbuf_size)
{
    const std::vector<uint8_t> bytes = pfm_bytes(loss, columns, rows);
    int fd = -1;
    const int target = adm::open_output(path.c_str(), FLOAT_ADM_OUTPUT_MAP, &fd, errbuf,
                                        errbuf_size);
    if (target == FLOAT_ADM_TARGET_STDOUT) {
        adm::format_error(errbuf, errbuf_size,
                          "%s: refusing to write the map there: it is stdout, and maps are "
                          "files of their own",
                          path.c_str());
        return FLOAT_ADM_ERROR_OUTPUT_NOT_FILE;
    }
    if (target < 0)
        return target;
    FILE *file = fdopen(fd, "wb");
    if (!file) {
        const int err = errno;
        close(fd);
        return cannot_write(path, err, errbuf, errbuf_size);
    }
    errno = 0;
    std::fwrite(bytes.data(), 1, bytes.size(), file);
    const bool failed = std::fflush(file) != 0 || std::ferror(file);
    const int err = errno;
    if (std::fclose(file) != 0 || failed)
        return cannot_write(path, failed ? err : errno, errbuf, errbuf_size);
    return 0;
}

int write_map(const FloatAdmContext *ctx, const char *pattern, uint64_t frame_num, char *errbuf,
              size_t errbuf_size)
{
    Pattern parsed;
    int ret = parse_pattern(pattern, &parsed, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    int columns = 0, rows = 0;
    ret = float_adm_map_size(ctx, &columns, &rows, nullptr);
    std::vector<float> loss;
    if (ret >= 0) {
        loss.resize((size_t)columns * rows);
        ret = float_adm_map_loss(ctx, loss.data(), loss.size());
    }
    if (ret < 0) {
        adm::format_error(errbuf, errbuf_size,
                          "no map to write: the context has no map enabled or no frame "
                          "scored whole");
        return ret;
    }
    return adm::write_map_pfm(pattern, frame_num, loss.data(), columns, rows, errbuf, errbuf_size);
}

} // namespace

namespace adm {

int write_map_pfm(const char *pattern, uint64_t frame_num, const float *loss, int columns, int rows,
                  char *errbuf, size_t errbuf_size)
{
    try {
        Pattern parsed;
        int ret = parse_pattern(pattern, &parsed, errbuf, errbuf_size);
        if (ret < 0)
            return ret;
        char number[32];
        std::snprintf(number, sizeof(number), "%0*" PRIu64, parsed.width, frame_num);
        return write_pfm(parsed.before + number + parsed.after, loss, columns, rows, errbuf,
                         errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory for a map");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

bool map_pattern_names(const char *pattern, const std::string &name)
{
    Pattern parsed;
    if (parse_pattern(pattern, &parsed, nullptr, 0) < 0)
        return false;
    const size_t fixed = parsed.before.size() + parsed.after.size();
    if (name.size() <= fixed || name.compare(0, parsed.before.size(), parsed.before) ||
        name.compare(name.size() - parsed.after.size(), parsed.after.size(), parsed.after))
        return false;
    const std::string number = name.substr(parsed.before.size(), name.size() - fixed);
    const size_t width = parsed.width ? static_cast<size_t>(parsed.width) : 1;
    return number.find_first_not_of("0123456789") == std::string::npos &&
           (number.size() == width || (number.size() > width && number[0] != '0'));
}

} // namespace adm

extern "C" {

int float_adm_map_pattern_check(const char *pattern, char *errbuf, size_t errbuf_size)
{
    try {
        Pattern parsed;
        return parse_pattern(pattern, &parsed, errbuf, errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory for a map pattern");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_map_write_pfm(const FloatAdmContext *ctx, const char *pattern, uint64_t frame_num,
                            char *errbuf, size_t errbuf_size)
{
    try {
        return write_map(ctx, pattern, frame_num, errbuf, errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory for a map");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_map_write_pfm_grid(const float *loss, int columns, int rows, const char *pattern,
                                 uint64_t frame_num, char *errbuf, size_t errbuf_size)
{
    if (!loss || columns <= 0 || rows <= 0) {
        adm::format_error(errbuf, errbuf_size,
                          "no map to write: no loss grid, or a grid of no block, given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    return adm::write_map_pfm(pattern, frame_num, loss, columns, rows, errbuf, errbuf_size);
}

} // extern "C"
