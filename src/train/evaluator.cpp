// Evaluator (burn/train/evaluator.hpp): the report's lookup and its file.
#include "burn/train/evaluator.hpp"

#include <filesystem>
#include <system_error>

#include "platform/files.hpp"
#include "train/metric_text.hpp"

namespace burn::train {

double EvaluationReport::value(const std::string& metric) const {
    auto it = values.find(metric);
    if (it != values.end()) return it->second;
    std::string names;
    for (const auto& [n, v] : values) names += (names.empty() ? "'" : ", '") + n + "'";
    BURN_THROW("[Evaluator] the report '", name, "' has no metric '", metric, "'; it has ", names);
}

void Evaluator::write(const EvaluationReport& report) const {
    std::string csv = "metric,value\n";
    for (const auto& [metric, v] : report.values) csv += metric + "," + detail::number_text(v) + "\n";
    std::error_code ec;  // as the training loop's logs: a missing folder is made, a failure is the write's
    std::filesystem::create_directories(dir_ / "metrics", ec);
    platform::write_file_atomic(dir_ / "metrics" / (detail::file_name(report.name) + ".csv"), csv,
                                "Evaluator");
}

}  // namespace burn::train
