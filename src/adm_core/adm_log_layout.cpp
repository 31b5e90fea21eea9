/*
 * float_adm: libvmaf's four log layouts (JSON, XML, CSV, subtitles) as text.
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

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "adm_log_layout.h"

namespace adm {

static const char *const kStatNames[] = {"min", "max", "mean", "harmonic_mean"};

static int num_outputs(const LogLayout &layout) { return static_cast<int>(layout.names.size()); }

/* Room for libvmaf's "%.2f" fps of any rate below a billion frames per second. */
static const size_t kFpsWidth = 12;

/* libvmaf writes an fps it has no number for as null (JSON) or "nan" (XML). */
std::string fps_text(const LogLayout &layout, double fps)
{
    char text[64];
    std::snprintf(text, sizeof(text), "%.2f", fps);
    if (!std::isfinite(fps) || std::strlen(text) > kFpsWidth)
        return layout.format == FLOAT_ADM_LOG_JSON ? "null" : "nan";
    return text;
}

/* The fps value and what closes it (XML: the quote), padded where it can be rewritten. */
std::string fps_field(const LogLayout &layout, const std::string &value)
{
    std::string field = value;
    if (layout.format == FLOAT_ADM_LOG_XML)
        field += '"';
    if (layout.fps_padded) {
        const size_t width = kFpsWidth + (layout.format == FLOAT_ADM_LOG_XML ? 1 : 0);
        field.append(width - field.size(), ' ');
    }
    return field;
}

static void append_double(std::string &out, double value)
{
    char text[40];
    std::snprintf(text, sizeof(text), "%.17g", value);
    out += text;
}

/* JSON has no NaN or infinity: libvmaf writes null there. */
static void append_json_number(std::string &out, double value)
{
    if (std::isfinite(value))
        append_double(out, value);
    else
        out += "null";
}

static void append_uint(std::string &out, uint64_t value)
{
    out += std::to_string(static_cast<unsigned long long>(value));
}

static void append_json_string(std::string &out, const char *text)
{
    out += '"';
    for (const char *p = text; *p; ++p) {
        const unsigned char c = static_cast<unsigned char>(*p);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20) {
            char escape[8];
            std::snprintf(escape, sizeof(escape), "\\u%04x", c);
            out += escape;
        } else {
            out += static_cast<char>(c);
        }
    }
    out += '"';
}

/* An XML attribute value; control characters XML 1.0 cannot hold become '?'. */
static void append_xml_attribute(std::string &out, const char *text)
{
    out += '"';
    for (const char *p = text; *p; ++p) {
        const unsigned char c = static_cast<unsigned char>(*p);
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            out += c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '?' : static_cast<char>(c);
        }
    }
    out += '"';
}

/* The header; *fps_at is where its fps field starts (npos: it has none). */
std::string header_text(const LogLayout &layout, size_t *fps_at)
{
    std::string out;
    *fps_at = std::string::npos;
    const std::string unknown_fps = fps_field(layout, fps_text(layout, NAN));
    switch (layout.format) {
    case FLOAT_ADM_LOG_JSON:
        out += "{\n  \"version\": \"float_adm ";
        out += float_adm_version();
        out += "\",\n  \"fps\": ";
        *fps_at = out.size();
        out += unknown_fps + ",\n  \"frames\": [";
        break;
    case FLOAT_ADM_LOG_CSV:
        out += "Frame,";
        for (const std::string &name : layout.names)
            out += name + ',';
        out += '\n';
        break;
    case FLOAT_ADM_LOG_XML:
        out += "<VMAF version=\"float_adm ";
        out += float_adm_version();
        out += "\">\n  <params qualityWidth=\"" + std::to_string(layout.width) +
               "\" qualityHeight=\"" + std::to_string(layout.height) + "\" />\n  <fyi fps=\"";
        *fps_at = out.size();
        out += unknown_fps + " />\n  <frames>\n";
        break;
    case FLOAT_ADM_LOG_SUB: break;
    }
    return out;
}

/* A subtitle line's start: shown from frame N to N + 1. */
static void append_sub_start(std::string &out, uint64_t frame_num)
{
    out += '{';
    append_uint(out, frame_num);
    out += "}{";
    append_uint(out, frame_num + 1);
    out += "}frame: ";
    append_uint(out, frame_num);
    out += '|';
}

std::string frame_text(const LogLayout &layout, bool first, uint64_t frame_num, double timestamp,
                       const FloatAdmScores *scores)
{
    std::string out;
    switch (layout.format) {
    case FLOAT_ADM_LOG_JSON:
        out += first ? "\n" : ",\n";
        out += "    {\n      \"frameNum\": ";
        append_uint(out, frame_num);
        if (!std::isnan(timestamp)) {
            out += ",\n      \"timestamp\": ";
            append_json_number(out, timestamp);
        }
        out += ",\n      \"metrics\": {\n";
        for (int i = 0; i < num_outputs(layout); i++) {
            out += "        \"";
            out += layout.names[i];
            out += "\": ";
            append_json_number(out, float_adm_output_value(scores, i));
            out += i + 1 < num_outputs(layout) ? ",\n" : "\n";
        }
        out += "      }\n    }";
        break;
    case FLOAT_ADM_LOG_CSV:
        append_uint(out, frame_num);
        out += ',';
        for (int i = 0; i < num_outputs(layout); i++) {
            append_double(out, float_adm_output_value(scores, i));
            out += ',';
        }
        out += '\n';
        break;
    case FLOAT_ADM_LOG_XML:
        out += "    <frame frameNum=\"";
        append_uint(out, frame_num);
        out += "\" ";
        for (int i = 0; i < num_outputs(layout); i++) {
            out += layout.names[i];
            out += "=\"";
            append_double(out, float_adm_output_value(scores, i));
            out += "\" ";
        }
        out += "/>\n";
        break;
    case FLOAT_ADM_LOG_SUB:
        append_sub_start(out, frame_num);
        for (int i = 0; i < num_outputs(layout); i++) {
            out += layout.names[i];
            out += ": ";
            append_double(out, float_adm_output_value(scores, i));
            out += '|';
        }
        out += '\n';
        break;
    }
    return out;
}

std::string skipped_text(const LogLayout &layout, bool first, uint64_t frame_num,
                         const char *reason)
{
    std::string out;
    switch (layout.format) {
    case FLOAT_ADM_LOG_JSON:
        out += first ? "\n" : ",\n";
        out += "    {\n      \"frameNum\": ";
        append_uint(out, frame_num);
        out += ",\n      \"skipped\": ";
        append_json_string(out, reason);
        out += ",\n      \"metrics\": {\n      }\n    }";
        break;
    case FLOAT_ADM_LOG_CSV:
        append_uint(out, frame_num);
        out += ',';
        out.append(static_cast<size_t>(num_outputs(layout)), ',');
        out += '\n';
        break;
    case FLOAT_ADM_LOG_XML:
        out += "    <frame frameNum=\"";
        append_uint(out, frame_num);
        out += "\" skipped=";
        append_xml_attribute(out, reason);
        out += " />\n";
        break;
    case FLOAT_ADM_LOG_SUB:
        append_sub_start(out, frame_num);
        out += '\n';
        break;
    }
    return out;
}

/* The pairing's members, after the aggregate metrics: JSON and XML have a place
 * for them that libvmaf's readers pass over; CSV and SUB have none. */
static void append_pairing(std::string &out, bool json, const LogPairing &pairing)
{
    out += json ? ",\n  \"pairing\": {\n    \"pairs\": " : "  <pairing pairs=\"";
    append_uint(out, pairing.pairs);
    for (int i = 0; i < pairing.num_doubts; i++) {
        out += json ? ",\n    \"" : "\" ";
        out += float_adm_pair_doubt_name(i);
        out += json ? "\": " : "=\"";
        append_uint(out, pairing.doubts[i]);
    }
    out += json ? "\n  }" : "\" />\n";
}

std::string footer_text(const LogLayout &layout, const FrameStats *stats, const LogPairing &pairing)
{
    std::string out;
    if (layout.format == FLOAT_ADM_LOG_CSV || layout.format == FLOAT_ADM_LOG_SUB)
        return out;
    const bool json = layout.format == FLOAT_ADM_LOG_JSON;
    out += json ? "\n  ],\n  \"pooled_metrics\": {" : "  </frames>\n  <pooled_metrics>\n";
    for (int i = 0; i < num_outputs(layout) && stats[0].count; i++) {
        const FloatAdmPooled pooled = stats[i].result();
        const double values[] = {pooled.min, pooled.max, pooled.mean, pooled.harmonic_mean};
        if (json) {
            out += i ? ",\n" : "\n";
            out += "    \"";
            out += layout.names[i];
            out += "\": {";
            for (size_t j = 0; j < 4; j++) {
                out += j ? ",\n" : "\n";
                out += "      \"";
                out += kStatNames[j];
                out += "\": ";
                append_json_number(out, values[j]);
            }
            out += "\n    }";
        } else {
            out += "    <metric name=\"";
            out += layout.names[i];
            out += "\" ";
            for (size_t j = 0; j < 4; j++) {
                out += kStatNames[j];
                out += "=\"";
                append_double(out, values[j]);
                out += "\" ";
            }
            out += "/>\n";
        }
    }
    out += json ? "\n  },\n  \"aggregate_metrics\": {\n  }"
                : "  </pooled_metrics>\n  <aggregate_metrics />\n";
    if (pairing.given)
        append_pairing(out, json, pairing);
    out += json ? "\n}\n" : "</VMAF>\n";
    return out;
}

std::string incomplete_text(const LogLayout &layout, const char *reason)
{
    std::string out;
    switch (layout.format) {
    case FLOAT_ADM_LOG_JSON:
        out += "\n  ],\n  \"incomplete\": ";
        append_json_string(out, reason);
        out += "\n}\n";
        break;
    case FLOAT_ADM_LOG_XML:
        out += "  </frames>\n  <incomplete reason=";
        append_xml_attribute(out, reason);
        out += " />\n</VMAF>\n";
        break;
    case FLOAT_ADM_LOG_CSV:
    case FLOAT_ADM_LOG_SUB:
        /* One line that no frame's line is: the reason on one line. */
        out += "incomplete: ";
        for (const char *p = reason; *p; ++p)
            out += *p == '\n' || *p == '\r' ? ' ' : *p;
        out += '\n';
        break;
    }
    return out;
}

} // namespace adm
