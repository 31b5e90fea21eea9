/*
 * A small JSON reader for the tests: golden.json and float_adm_score's output.
 * Numbers keep their text and are read with strtod, which rounds correctly, so a
 * %.17g value reads back as the exact double that was printed.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TESTS_JSON_READER_H
#define TESTS_JSON_READER_H

#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace testjson {

struct Value {
    enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
    bool boolean = false;
    std::string text; /* number text or string contents */
    std::vector<Value> items;
    std::vector<std::pair<std::string, Value>> members; /* in file order */

    bool is_null() const { return kind == kNull; }
    double number() const { return std::strtod(text.c_str(), nullptr); }
    const Value &operator[](const std::string &key) const
    {
        for (const auto &m : members)
            if (m.first == key)
                return m.second;
        throw std::runtime_error("JSON: no member '" + key + "'");
    }
    bool has(const std::string &key) const
    {
        for (const auto &m : members)
            if (m.first == key)
                return true;
        return false;
    }
};

class Parser {
public:
    explicit Parser(const std::string &src) : s_(src) {}

    Value parse()
    {
        Value v = value();
        skip_space();
        if (pos_ != s_.size())
            fail("trailing characters");
        return v;
    }

private:
    [[noreturn]] void fail(const char *what)
    {
        throw std::runtime_error(std::string("JSON: ") + what + " at offset " +
                                 std::to_string(pos_));
    }
    void skip_space()
    {
        while (pos_ < s_.size() &&
               (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t'))
            pos_++;
    }
    bool take(char c)
    {
        skip_space();
        if (pos_ < s_.size() && s_[pos_] == c) {
            pos_++;
            return true;
        }
        return false;
    }
    void expect(char c)
    {
        if (!take(c))
            fail("unexpected character");
    }
    bool take_word(const char *w)
    {
        size_t n = std::char_traits<char>::length(w);
        if (s_.compare(pos_, n, w) == 0) {
            pos_ += n;
            return true;
        }
        return false;
    }
    std::string string_body()
    {
        std::string out;
        while (pos_ < s_.size() && s_[pos_] != '"') {
            char c = s_[pos_++];
            if (c == '\\') {
                if (pos_ >= s_.size())
                    fail("bad escape");
                char e = s_[pos_++];
                out += e == 'n' ? '\n' : e == 't' ? '\t' : e; /* enough for our files */
            } else {
                out += c;
            }
        }
        if (pos_ >= s_.size())
            fail("unterminated string");
        pos_++;
        return out;
    }
    Value value()
    {
        skip_space();
        Value v;
        if (pos_ >= s_.size())
            fail("unexpected end");
        char c = s_[pos_];
        if (c == '{') {
            pos_++;
            v.kind = Value::kObject;
            if (take('}'))
                return v;
            do {
                expect('"');
                std::string key = string_body();
                expect(':');
                v.members.emplace_back(key, value());
            } while (take(','));
            expect('}');
        } else if (c == '[') {
            pos_++;
            v.kind = Value::kArray;
            if (take(']'))
                return v;
            do
                v.items.push_back(value());
            while (take(','));
            expect(']');
        } else if (c == '"') {
            pos_++;
            v.kind = Value::kString;
            v.text = string_body();
        } else if (take_word("null")) {
            v.kind = Value::kNull;
        } else if (take_word("true") || take_word("false")) {
            v.kind = Value::kBool;
            v.boolean = s_[pos_ - 1] == 'e' && s_[pos_ - 2] == 'u';
        } else {
            size_t start = pos_;
            while (pos_ < s_.size() &&
                   std::string("+-.eE0123456789").find(s_[pos_]) != std::string::npos)
                pos_++;
            if (start == pos_)
                fail("unexpected character");
            v.kind = Value::kNumber;
            v.text = s_.substr(start, pos_ - start);
        }
        return v;
    }

    const std::string &s_;
    size_t pos_ = 0;
};

inline Value parse(const std::string &text) { return Parser(text).parse(); }

} // namespace testjson

#endif /* TESTS_JSON_READER_H */
