// The end-of-run table and the curves image.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "burn/train/core.hpp"

namespace burn::train {

namespace {

struct Column {
    std::string title;
    const MetricHistory* h;
};

std::string pad_left(const std::string& s, std::size_t w) {
    return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}
std::string pad_right(const std::string& s, std::size_t w) {
    return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

/// A value as format_metric writes it, without the unit (the column title carries it).
std::string cell(double v, const std::string& unit) {
    if (!std::isfinite(v)) return "-";
    std::string s = format_metric(v, unit);
    const std::string suffix = " " + unit;
    if (!unit.empty() && s.size() > suffix.size() &&
        s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
        s.resize(s.size() - suffix.size());
    return s;
}

/// A Markdown table; the first left_cols columns are left-aligned, the others right-aligned.
std::string table(const std::vector<std::vector<std::string>>& rows, std::size_t left_cols) {
    std::vector<std::size_t> width;
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (width.size() <= i) width.push_back(0);
            width[i] = std::max(width[i], r[i].size());
        }
    std::ostringstream os;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        os << "|";
        for (std::size_t i = 0; i < rows[k].size(); ++i)
            os << " " << (i < left_cols ? pad_right(rows[k][i], width[i]) : pad_left(rows[k][i], width[i]))
               << " |";
        os << "\n";
        if (k == 0) {
            os << "|";
            for (std::size_t i = 0; i < width.size(); ++i) os << std::string(width[i] + 2, '-') << "|";
            os << "\n";
        }
    }
    return os.str();
}

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else
            out += c;
    }
    return out;
}

}  // namespace

std::string format_summary(const std::vector<MetricHistory>& train, const std::vector<MetricHistory>& valid) {
    std::vector<Column> cols;
    std::vector<std::string> names;
    for (const auto* hs : {&train, &valid})
        for (const auto& h : *hs)
            if (std::find(names.begin(), names.end(), h.name) == names.end()) names.push_back(h.name);
    std::size_t epochs = 0;
    for (const auto& name : names) {
        for (const auto* hs : {&train, &valid})
            for (const auto& h : *hs)
                if (h.name == name) {
                    std::string title = std::string(hs == &train ? "Train " : "Valid ") + h.name;
                    if (!h.unit.empty()) title += " (" + h.unit + ")";
                    cols.push_back({title, &h});
                    epochs = std::max(epochs, h.values.size());
                }
    }
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header = {"Epoch"};
    for (const auto& c : cols) header.push_back(c.title);
    rows.push_back(header);
    for (std::size_t e = 0; e < epochs; ++e) {
        std::vector<std::string> r = {std::to_string(e + 1)};
        for (const auto& c : cols)
            r.push_back(e < c.h->values.size() ? cell(c.h->values[e], c.h->unit) : "-");
        rows.push_back(r);
    }
    std::vector<std::vector<std::string>> best = {{"Split", "Metric", "Min.", "Epoch", "Max.", "Epoch"}};
    for (const auto* hs : {&train, &valid})
        for (const auto& h : *hs) {
            std::size_t lo = 0, hi = 0;
            bool any = false;
            for (std::size_t e = 0; e < h.values.size(); ++e) {
                if (!std::isfinite(h.values[e])) continue;
                if (!any || h.values[e] < h.values[lo]) lo = e;
                if (!any || h.values[e] > h.values[hi]) hi = e;
                any = true;
            }
            if (!any) continue;
            best.push_back({hs == &train ? "Train" : "Valid", h.name, format_metric(h.values[lo], h.unit),
                            std::to_string(lo + 1), format_metric(h.values[hi], h.unit),
                            std::to_string(hi + 1)});
        }
    return "Training summary\n" + table(rows, 0) + "\n" + table(best, 2);
}

std::string curves_svg(const std::vector<MetricHistory>& train, const std::vector<MetricHistory>& valid) {
    std::vector<std::string> names;
    for (const auto* hs : {&train, &valid})
        for (const auto& h : *hs)
            if (std::find(names.begin(), names.end(), h.name) == names.end()) names.push_back(h.name);
    const int pw = 440, ph = 270, cols = 2;
    const int rows = std::max<int>(1, (static_cast<int>(names.size()) + cols - 1) / cols);
    std::ostringstream os;
    os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << pw * cols << "\" height=\"" << ph * rows
       << "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" "
          "fill=\"white\"/>\n";
    char buf[64];
    for (std::size_t k = 0; k < names.size(); ++k) {
        const int x0 = static_cast<int>(k % cols) * pw, y0 = static_cast<int>(k / cols) * ph;
        const int left = x0 + 60, right = x0 + pw - 15, top = y0 + 30, bottom = y0 + ph - 35;
        const MetricHistory* series[2] = {nullptr, nullptr};
        for (const auto& h : train)
            if (h.name == names[k]) series[0] = &h;
        for (const auto& h : valid)
            if (h.name == names[k]) series[1] = &h;
        double lo = INFINITY, hi = -INFINITY;
        std::size_t epochs = 0;
        std::string unit;
        for (const auto* s : series) {
            if (!s) continue;
            unit = s->unit;
            epochs = std::max(epochs, s->values.size());
            for (double v : s->values)
                if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
        }
        os << "<text x=\"" << x0 + pw / 2 << "\" y=\"" << y0 + 18
           << "\" text-anchor=\"middle\" font-size=\"13\">" << xml_escape(names[k])
           << (unit.empty() ? "" : " (" + xml_escape(unit) + ")") << "</text>\n";
        os << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << right - left << "\" height=\""
           << bottom - top << "\" fill=\"none\" stroke=\"#999\"/>\n";
        if (!(lo <= hi)) continue;
        if (hi - lo < 1e-12) lo -= 0.5, hi += 0.5;
        auto X = [&](std::size_t e) {
            return epochs <= 1
                       ? (left + right) / 2.0
                       : left + (right - left) * static_cast<double>(e) / static_cast<double>(epochs - 1);
        };
        auto Y = [&](double v) { return bottom - (bottom - top) * (v - lo) / (hi - lo); };
        for (double v : {lo, hi}) {
            std::snprintf(buf, sizeof buf, "%.4g", v);
            os << "<text x=\"" << left - 5 << "\" y=\"" << Y(v) + 4 << "\" text-anchor=\"end\">" << buf
               << "</text>\n";
        }
        os << "<text x=\"" << left << "\" y=\"" << bottom + 15 << "\">1</text><text x=\"" << right
           << "\" y=\"" << bottom + 15 << "\" text-anchor=\"end\">" << epochs << "</text><text x=\""
           << (left + right) / 2 << "\" y=\"" << bottom + 28 << "\" text-anchor=\"middle\">epoch</text>\n";
        const char* colors[2] = {"#1f77b4", "#ff7f0e"};
        const char* labels[2] = {"train", "valid"};
        for (int s = 0; s < 2; ++s) {
            if (!series[s]) continue;
            os << "<polyline fill=\"none\" stroke=\"" << colors[s] << "\" stroke-width=\"2\" points=\"";
            for (std::size_t e = 0; e < series[s]->values.size(); ++e) {
                if (!std::isfinite(series[s]->values[e])) continue;
                std::snprintf(buf, sizeof buf, "%.1f,%.1f ", X(e), Y(series[s]->values[e]));
                os << buf;
            }
            os << "\"/>\n";
            for (std::size_t e = 0; e < series[s]->values.size(); ++e) {
                if (!std::isfinite(series[s]->values[e])) continue;
                std::snprintf(buf, sizeof buf, "%.1f\" cy=\"%.1f", X(e), Y(series[s]->values[e]));
                os << "<circle cx=\"" << buf << "\" r=\"2.5\" fill=\"" << colors[s] << "\"/>\n";
            }
            os << "<text x=\"" << right - 5 << "\" y=\"" << top + 14 + 14 * s
               << "\" text-anchor=\"end\" fill=\"" << colors[s] << "\">" << labels[s] << "</text>\n";
        }
    }
    os << "</svg>\n";
    return os.str();
}

}  // namespace burn::train
