/*
 * The golden corpus for the tests.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "fixture.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace testsupport {

std::string read_file(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

testjson::Value read_json(const std::string &path)
{
    try {
        return testjson::parse(read_file(path));
    } catch (const std::runtime_error &e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

std::string golden_path()
{
    const char *path = std::getenv("FLOAT_ADM_GOLDEN");
    return path && *path ? path : "tests/corpus/golden.json";
}

const testjson::Value &find_fixture(const testjson::Value &golden, const std::string &name)
{
    for (const auto &f : golden["fixtures"].items)
        if (f["name"].text == name)
            return f;
    throw std::runtime_error("golden.json has no fixture " + name);
}

FrameGeometry fixture_geometry(const testjson::Value &fixture)
{
    return FrameGeometry::from_pix_fmt(fixture["pix_fmt"].text, (int)fixture["width"].number(),
                                       (int)fixture["height"].number());
}

namespace {

bool ends_with(const std::string &s, const std::string &tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/* Single quotes for sh. */
std::string quoted(const std::string &s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

} // namespace

std::vector<LumaPlane> load_luma_frames(const std::string &path, const FrameGeometry &geometry)
{
    const bool compressed = ends_with(path, ".xz");
    FILE *in;
    if (compressed) {
        const std::string cmd = "xz -dc " + quoted(path) +
                                " 2>/dev/null || python3 -c 'import lzma, sys; "
                                "sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' " +
                                quoted(path);
        in = popen(cmd.c_str(), "r");
    } else {
        in = fopen(path.c_str(), "rb");
    }
    if (!in)
        throw std::runtime_error("cannot read " + path);
    std::vector<LumaPlane> frames;
    std::vector<uint8_t> frame(geometry.frame_bytes());
    const size_t row = geometry.luma_row_bytes();
    while (fread(frame.data(), 1, frame.size(), in) == frame.size()) {
        LumaPlane p = LumaPlane::blank(geometry);
        for (int y = 0; y < geometry.height; y++)
            std::copy(frame.begin() + y * row, frame.begin() + (y + 1) * row,
                      p.bytes.begin() + y * p.stride);
        frames.push_back(std::move(p));
    }
    const int status = compressed ? pclose(in) : fclose(in);
    if (status != 0 || frames.empty())
        throw std::runtime_error("cannot read frames of " + path +
                                 (compressed ? " (is xz or python3 installed?)" : ""));
    return frames;
}

FixtureFrames load_fixture_frames(const std::string &dir, const testjson::Value &fixture)
{
    FixtureFrames f;
    f.geometry = fixture_geometry(fixture);
    f.refs = load_luma_frames(dir + "/" + fixture["ref"].text, f.geometry);
    f.dists = load_luma_frames(dir + "/" + fixture["dis"].text, f.geometry);
    return f;
}

std::string option_text(const testjson::Value &value)
{
    if (value.kind == testjson::Value::kBool)
        return value.boolean ? "true" : "false";
    return value.text;
}

OptionSet option_set(const testjson::Value &options)
{
    OptionSet set;
    for (const auto &m : options.members)
        set.emplace_back(m.first, option_text(m.second));
    return set;
}

std::vector<OptionSet> option_sets(const testjson::Value &golden)
{
    std::vector<OptionSet> sets;
    for (const auto &c : golden["cases"].items) {
        OptionSet set = option_set(c["options"]);
        bool seen = false;
        for (const OptionSet &s : sets)
            seen = seen || s == set;
        if (!seen)
            sets.push_back(set);
    }
    return sets;
}

std::string describe(const OptionSet &set)
{
    std::string out;
    for (const auto &o : set)
        out += (out.empty() ? "" : " ") + o.first + "=" + o.second;
    return out.empty() ? "defaults" : out;
}

bool apply_options(const OptionSet &set, FloatAdmOptions *opts, std::string *error)
{
    float_adm_options_default(opts);
    for (const auto &o : set) {
        char err[256] = "";
        if (float_adm_option_set(opts, o.first.c_str(), o.second.c_str(), err, sizeof(err)) < 0) {
            *error = err;
            return false;
        }
    }
    return true;
}

std::vector<CorpusFixture> load_corpus(const std::string &dir, testjson::Value *golden,
                                       std::vector<std::string> *failures)
{
    *golden = read_json(dir + "/golden.json");
    std::vector<CorpusFixture> corpus;
    for (const testjson::Value &fx : (*golden)["fixtures"].items) {
        CorpusFixture f;
        f.name = fx["name"].text;
        try {
            f.frames = load_fixture_frames(dir, fx);
        } catch (const std::exception &e) {
            failures->push_back(f.name + ": " + e.what());
            continue;
        }
        for (const testjson::Value &c : (*golden)["cases"].items) {
            if (c["fixture"].text != f.name)
                continue;
            CorpusCase cc;
            cc.option_set = c["option_set"].text;
            cc.json = &c;
            std::string error;
            if (apply_options(option_set(c["options"]), &cc.options, &error))
                f.cases.push_back(cc);
            else
                failures->push_back(f.name + " options: " + error);
        }
        corpus.push_back(std::move(f));
    }
    return corpus;
}

FloatAdmOptions debug_options(const OptionSet &set)
{
    FloatAdmOptions opts;
    std::string error;
    if (!apply_options(set, &opts, &error))
        throw std::runtime_error(describe(set) + ": " + error);
    opts.debug = 1;
    return opts;
}

std::string host_fingerprint()
{
    char hex[65];
    float_adm_rcp_fingerprint(hex);
    return hex;
}

} // namespace testsupport
