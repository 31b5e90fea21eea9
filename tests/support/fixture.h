/*
 * The golden corpus for the tests: golden.json (its fixtures, cases and option
 * sets) and the fixtures' frames, read from .yuv or .yuv.xz files.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TESTS_SUPPORT_FIXTURE_H
#define TESTS_SUPPORT_FIXTURE_H

#include <string>
#include <utility>
#include <vector>

#include "float_adm.h"
#include "frames.h"
#include "json_reader.h"

namespace testsupport {

/* A whole file; throws when it cannot be read. */
std::string read_file(const std::string &path);
testjson::Value read_json(const std::string &path);

/* golden.json: $FLOAT_ADM_GOLDEN, else tests/corpus/golden.json (make runs tests from the
 * source tree). */
std::string golden_path();

/* The entry of golden.json's "fixtures" with that name; throws when there is none. */
const testjson::Value &find_fixture(const testjson::Value &golden, const std::string &name);
FrameGeometry fixture_geometry(const testjson::Value &fixture);

/*
 * The luma planes of every whole frame of a fixture file: a .yuv, or a .yuv.xz
 * decompressed with xz (Python's lzma where xz is missing).  Throws on error and when
 * the file holds no whole frame.
 */
std::vector<LumaPlane> load_luma_frames(const std::string &path, const FrameGeometry &geometry);

/* A fixture's geometry and the luma planes of its reference and distorted files. */
struct FixtureFrames {
    FrameGeometry geometry;
    std::vector<LumaPlane> refs, dists;
};

/* The frames of a golden.json fixture whose files ("ref", "dis") lie in dir; throws on error. */
FixtureFrames load_fixture_frames(const std::string &dir, const testjson::Value &fixture);

/* An option value of golden.json as float_adm_option_set takes it. */
std::string option_text(const testjson::Value &value);

/* name=value pairs of one case's "options", in file order. */
typedef std::vector<std::pair<std::string, std::string>> OptionSet;
OptionSet option_set(const testjson::Value &options);
/* golden.json's distinct option sets, in the order of its cases (the defaults first). */
std::vector<OptionSet> option_sets(const testjson::Value &golden);
/* "name=value ..." or "defaults". */
std::string describe(const OptionSet &set);

/* The defaults with a set applied; false with float_adm_option_set's message in *error. */
bool apply_options(const OptionSet &set, FloatAdmOptions *opts, std::string *error);

/* A case of golden.json with its options applied to the defaults. */
struct CorpusCase {
    std::string option_set; /* its "option_set": "default", ... */
    FloatAdmOptions options;
    const testjson::Value *json; /* the case, in the golden.json it came from */
};

/* A fixture of golden.json with its frames and its cases, in file order. */
struct CorpusFixture {
    std::string name;
    FixtureFrames frames;
    std::vector<CorpusCase> cases;
};

/*
 * dir/golden.json into *golden, and every fixture with its frames and cases, for the
 * tests that walk the whole corpus.  A fixture whose frames cannot be read, or a case
 * whose options do not apply, is left out and said in *failures ("NAME: why", "NAME
 * options: why").  Throws where golden.json cannot be read.
 */
std::vector<CorpusFixture> load_corpus(const std::string &dir, testjson::Value *golden,
                                       std::vector<std::string> *failures);

/* A corpus case's options with the debug outputs on, as golden.json records them;
 * throws with float_adm_option_set's message where the set does not apply. */
FloatAdmOptions debug_options(const OptionSet &set);

/* This processor's RCPSS fingerprint (float_adm_rcp_fingerprint). */
std::string host_fingerprint();

} // namespace testsupport

#endif /* TESTS_SUPPORT_FIXTURE_H */
