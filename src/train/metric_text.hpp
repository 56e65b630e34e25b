#pragma once
// How metric names and values are written to files (the training loop's CSVs and summary, the
// Evaluator's report).
#include <cctype>
#include <cmath>
#include <sstream>
#include <string>

namespace burn::train::detail {

/// "Top-3 Accuracy" -> "top-3_accuracy": a file name.
inline std::string file_name(const std::string& metric) {
    std::string s;
    for (char c : metric) {
        unsigned char u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '.')
            s += static_cast<char>(std::tolower(u));
        else if (!s.empty() && s.back() != '_')
            s += '_';
    }
    while (!s.empty() && s.back() == '_') s.pop_back();
    return s.empty() ? "metric" : s;
}

/// A value with 10 significant digits; "nan" for NaN and infinities.
inline std::string number_text(double v) {
    if (!std::isfinite(v)) return "nan";
    std::ostringstream os;
    os.precision(10);
    os << v;
    return os.str();
}

}  // namespace burn::train::detail
