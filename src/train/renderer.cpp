// Plain-line rendering, value formatting and the choice of renderer.
#include "burn/train/renderer.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "platform/process.hpp"

namespace burn::train {

std::string format_state(const MetricState& state, bool last) {
    return state.text.empty() ? format_metric(last ? state.last : state.value, state.unit) : state.text;
}

std::string format_metric(double v, const std::string& unit) {
    if (std::isnan(v)) return "nan";
    char buf[64];
    if (unit == "%")
        std::snprintf(buf, sizeof buf, "%.2f %%", v);
    else if (unit == "GB")
        std::snprintf(buf, sizeof buf, "%.3f GB", v);
    else if (!unit.empty())
        std::snprintf(buf, sizeof buf, "%.1f %s", v, unit.c_str());
    else if (v != 0 && (std::fabs(v) >= 1e4 || std::fabs(v) < 1e-3))
        std::snprintf(buf, sizeof buf, "%.3e", v);
    else
        std::snprintf(buf, sizeof buf, "%.4f", v);
    return buf;
}

std::string format_duration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "-";
    long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

namespace {

class PlainRenderer final : public MetricsRenderer {
  public:
    PlainRenderer(std::ostream& out, double interval) : out_(out), interval_(interval) {}

    void update(const TrainingProgress& p, const std::vector<MetricState>& metrics) override {
        if (p.iteration <= 1) last_ = std::chrono::steady_clock::now();
        if (interval_ <= 0 || p.iteration >= p.num_iterations) return;
        auto now = std::chrono::steady_clock::now();
        if (std::chrono::duration<double>(now - last_).count() < interval_) return;
        last_ = now;
        std::string line = "  [" + std::string(split_name(p.split)) + "] epoch " + std::to_string(p.epoch) +
                           "/" + std::to_string(p.num_epochs) + "  iteration " + std::to_string(p.iteration) +
                           "/" + std::to_string(p.num_iterations);
        for (const auto& m : metrics) line += "  " + m.name + " " + format_state(m);
        const double rate = p.epoch_seconds / static_cast<double>(p.iteration);
        line += "  (epoch ETA " +
                format_duration(rate * static_cast<double>(p.num_iterations - p.iteration)) + ")";
        out_ << line << "\n" << std::flush;
    }

    void epoch_end(const EpochRecord& r) override {
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.1f s", r.seconds);
        std::string line =
            "epoch " + std::to_string(r.epoch) + "/" + std::to_string(r.num_epochs) + " (" + secs + ")";
        auto add = [&](const char* split, const std::vector<MetricState>& ms) {
            if (ms.empty()) return;
            line += std::string("  ") + split + ":";
            for (std::size_t i = 0; i < ms.size(); ++i)
                line += (i ? ", " : " ") + ms[i].name + " " + format_state(ms[i]);
        };
        add("train", r.train);
        add("valid", r.valid);
        out_ << line << "\n" << std::flush;
        last_ = std::chrono::steady_clock::now();
    }

    void message(const std::string& line) override { out_ << line << "\n" << std::flush; }

  private:
    std::ostream& out_;
    double interval_;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

class NullRenderer final : public MetricsRenderer {
  public:
    void update(const TrainingProgress&, const std::vector<MetricState>&) override {}
    void epoch_end(const EpochRecord&) override {}
    void message(const std::string&) override {}
};

bool env_off(const char* name) {
    const char* v = std::getenv(name);
    return v && (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0 || std::strcmp(v, "false") == 0);
}

}  // namespace

std::unique_ptr<MetricsRenderer> make_plain_renderer(std::ostream& out, double progress_interval) {
    return std::make_unique<PlainRenderer>(out, progress_interval);
}

std::unique_ptr<MetricsRenderer> make_renderer(RendererKind kind) {
    if (kind == RendererKind::none) return std::make_unique<NullRenderer>();
    if (kind != RendererKind::plain && !env_off("BURN_TUI")) {
        if (auto tui = make_tui_renderer()) return tui;
    }
    return make_plain_renderer(std::cout);
}

}  // namespace burn::train
