/*
 * float_adm: the C API of the option table (FLOAT_ADM_OPTIONS in float_adm.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#include "adm_error_message.h"
#include "float_adm.h"

namespace {

struct OptionEntry {
    FloatAdmOptionInfo info;
    size_t offset;  /* of the int or double field in FloatAdmOptions */
};

/* The C type a row's field must have: DOUBLE a double, INT and BOOL an int. */
template <FloatAdmOptionType kind> struct FieldType {
    typedef int c_type;
};
template <> struct FieldType<FLOAT_ADM_OPT_DOUBLE> {
    typedef double c_type;
};

/* Each row's field exists and has its kind's C type (it is read and written through
 * its offset), and its default lies in its range. */
#define CHECK_ROW(name, alias, field, kind, def, min, max, help)                                   \
    static_assert(                                                                                 \
        std::is_same<std::remove_reference_t<decltype(std::declval<FloatAdmOptions &>().field)>,   \
                     FieldType<FLOAT_ADM_OPT_##kind>::c_type>::value,                              \
        name ": the field's type is not the row's");                                               \
    static_assert((min) <= (def) && (def) <= (max), name ": the default is out of range");
FLOAT_ADM_OPTIONS(CHECK_ROW, CHECK_ROW)
#undef CHECK_ROW

#define ENTRY(name, alias, field, kind, def, min, max, help)                                       \
    {{name, alias, help, FLOAT_ADM_OPT_##kind, def, min, max}, offsetof(FloatAdmOptions, field)},
const OptionEntry kOptions[] = {FLOAT_ADM_OPTIONS(ENTRY, ENTRY)};
#undef ENTRY

constexpr int kNumOptions = (int)(sizeof(kOptions) / sizeof(kOptions[0]));

const OptionEntry *find_option(const char *name)
{
    if (!name)
        return nullptr;
    for (const OptionEntry &e : kOptions)
        if (!strcmp(e.info.name, name) || (e.info.alias && !strcmp(e.info.alias, name)))
            return &e;
    return nullptr;
}

double read_field(const FloatAdmOptions *opts, const OptionEntry &e)
{
    const char *base = reinterpret_cast<const char *>(opts) + e.offset;
    if (e.info.type == FLOAT_ADM_OPT_DOUBLE)
        return *reinterpret_cast<const double *>(base);
    return *reinterpret_cast<const int *>(base);
}

void write_field(FloatAdmOptions *opts, const OptionEntry &e, double value)
{
    char *base = reinterpret_cast<char *>(opts) + e.offset;
    if (e.info.type == FLOAT_ADM_OPT_DOUBLE)
        *reinterpret_cast<double *>(base) = value;
    else
        *reinterpret_cast<int *>(base) = (int)value;
}

/* A double as %g writes it where that reads back as the same double, else with as
 * many more digits as it takes: 100.00000000000001, where %g would say 100, inside a
 * range that ends at 100. */
void shortest_text(double value, char *buf, size_t size)
{
    for (int precision = 6; precision <= 17; precision++) {
        snprintf(buf, size, "%.*g", precision, value);
        if (strtod(buf, nullptr) == value)
            return;
    }
}

/* given: the text the value was read from, or NULL.  A message shows the value as
 * given (strtod skipped its leading white space, and so does the message), else as the
 * shortest text of the number. */
int check_value(const OptionEntry &e, double value, const char *given, char *errbuf,
                size_t errbuf_size)
{
    const FloatAdmOptionInfo &o = e.info;
    char number[32], low[32], high[32];
    const char *shown = given;
    if (shown) {
        while (isspace((unsigned char)*shown))
            shown++;
    } else {
        shortest_text(value, number, sizeof(number));
        shown = number;
    }
    if (std::isnan(value) || value < o.min || value > o.max) {
        shortest_text(o.min, low, sizeof(low));
        shortest_text(o.max, high, sizeof(high));
        adm::format_error(errbuf, errbuf_size, "option %s%s%s%s: %s is out of range [%s, %s]",
                          o.name, o.alias ? " (" : "", o.alias ? o.alias : "", o.alias ? ")" : "",
                          shown, low, high);
        return FLOAT_ADM_ERROR_RANGE;
    }
    if (o.type != FLOAT_ADM_OPT_DOUBLE && value != std::floor(value)) {
        adm::format_error(errbuf, errbuf_size, "option %s: %s is not an integer", o.name, shown);
        return FLOAT_ADM_ERROR_INVALID;
    }
    return 0;
}

/* Text to number: booleans take true/false/yes/no/1/0; ints and doubles strtod. */
bool parse_value(const OptionEntry &e, const char *text, double *value)
{
    if (!text || !*text)
        return false;
    if (e.info.type == FLOAT_ADM_OPT_BOOL) {
        static const char *const truths[] = {"true", "yes", "on", "1"};
        static const char *const lies[] = {"false", "no", "off", "0"};
        for (const char *t : truths)
            if (!strcmp(text, t)) {
                *value = 1;
                return true;
            }
        for (const char *f : lies)
            if (!strcmp(text, f)) {
                *value = 0;
                return true;
            }
        return false;
    }
    char *end = nullptr;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno == ERANGE)
        return false;
    *value = v;
    return true;
}

} // namespace

extern "C" {

void float_adm_options_default(FloatAdmOptions *opts)
{
    memset(opts, 0, sizeof(*opts));
    for (const OptionEntry &e : kOptions)
        write_field(opts, e, e.info.default_value);
}

int float_adm_option_count(void) { return kNumOptions; }

const FloatAdmOptionInfo *float_adm_option_info(int index)
{
    return index >= 0 && index < kNumOptions ? &kOptions[index].info : nullptr;
}

int float_adm_option_set_double(FloatAdmOptions *opts, const char *name, double value,
                                char *errbuf, size_t errbuf_size)
{
    const OptionEntry *e = find_option(name);
    if (!opts || !e) {
        adm::format_error(errbuf, errbuf_size, "unknown option '%s'", name ? name : "(null)");
        return FLOAT_ADM_ERROR_NOT_FOUND;
    }
    int ret = check_value(*e, value, nullptr, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    write_field(opts, *e, value);
    return 0;
}

int float_adm_option_set(FloatAdmOptions *opts, const char *name, const char *value,
                         char *errbuf, size_t errbuf_size)
{
    const OptionEntry *e = find_option(name);
    if (!opts || !e) {
        adm::format_error(errbuf, errbuf_size, "unknown option '%s'", name ? name : "(null)");
        return FLOAT_ADM_ERROR_NOT_FOUND;
    }
    double v;
    if (!parse_value(*e, value, &v)) {
        adm::format_error(errbuf, errbuf_size, "option %s: '%s' is not a valid %s", e->info.name,
                          value ? value : "(null)",
                          e->info.type == FLOAT_ADM_OPT_BOOL  ? "boolean (true/false)"
                          : e->info.type == FLOAT_ADM_OPT_INT ? "integer"
                                                              : "number");
        return FLOAT_ADM_ERROR_INVALID;
    }
    int ret = check_value(*e, v, value, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    write_field(opts, *e, v);
    return 0;
}

int float_adm_option_get(const FloatAdmOptions *opts, const char *name, double *value)
{
    const OptionEntry *e = find_option(name);
    if (!opts || !e || !value)
        return FLOAT_ADM_ERROR_NOT_FOUND;
    *value = read_field(opts, *e);
    return 0;
}

int float_adm_options_validate(const FloatAdmOptions *opts, char *errbuf, size_t errbuf_size)
{
    if (!opts) {
        adm::format_error(errbuf, errbuf_size, "no options given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    for (const OptionEntry &e : kOptions) {
        int ret = check_value(e, read_field(opts, e), nullptr, errbuf, errbuf_size);
        if (ret < 0)
            return ret;
    }
    return 0;
}

} // extern "C"
