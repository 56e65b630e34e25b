// The terminal dashboard (ncurses): live curves of each numeric metric (plot_text.cpp: labelled value
// and epoch axes), a table of the latest values, progress bars with ETAs for the epoch and the run, and
// the last messages. Keys: left/right (or h/l, tab) switch the plotted metric, r toggles the plot
// between the whole run and the last epoch's worth, q stops the run cleanly. Built only with ncurses
// (BURN_HAVE_NCURSES) and used only when stdout is a terminal.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "burn/train/renderer.hpp"
#include "platform/process.hpp"
#include "train/plot_text.hpp"

#ifdef BURN_HAVE_NCURSES
#include <curses.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <iostream>
#include <map>
#endif

namespace burn::train {

#ifndef BURN_HAVE_NCURSES

bool tui_built() {
    return false;
}
std::unique_ptr<MetricsRenderer> make_tui_renderer() {
    return nullptr;
}

#else

bool tui_built() {
    return true;
}

namespace {

using Point = detail::PlotPoint;

class TuiRenderer final : public MetricsRenderer {
  public:
    static std::unique_ptr<TuiRenderer> create() {
        SCREEN* screen = newterm(nullptr, stdout, stdin);
        if (!screen) return nullptr;
        return std::unique_ptr<TuiRenderer>(new TuiRenderer(screen));
    }

    ~TuiRenderer() override { finish(); }

    void update(const TrainingProgress& p, const std::vector<MetricState>& metrics) override {
        if (done_) return;
        progress_ = p;
        auto& latest = p.split == Split::train ? train_latest_ : valid_latest_;
        latest = metrics;
        for (const auto& m : metrics) {
            if (std::find(names_.begin(), names_.end(), m.name) == names_.end()) names_.push_back(m.name);
            units_[m.name] = m.unit;
            auto& pts = (p.split == Split::train ? train_curve_ : valid_curve_)[m.name];
            if (std::isfinite(m.value)) pts.push_back({p.run_fraction, m.value});
            if (pts.size() > 4000) thin(pts);
        }
        poll_keys();
        auto now = std::chrono::steady_clock::now();
        if (std::chrono::duration<double>(now - last_draw_).count() >= 0.1) draw();
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
        epoch_lines_.push_back(line);
        push_message(line);
        valid_latest_ = r.valid;
        if (!done_) draw();
    }

    void message(const std::string& line) override {
        push_message(line);
        epoch_lines_.push_back(line);
        if (!done_) draw();
    }

    void finish() override {
        if (done_) return;
        done_ = true;
        endwin();
        delscreen(screen_);
        for (const auto& l : epoch_lines_) std::cout << l << "\n";
        std::cout << std::flush;
    }

    bool stop_requested() override {
        if (!done_) poll_keys();
        return stop_;
    }

  private:
    explicit TuiRenderer(SCREEN* screen) : screen_(screen) {
        set_term(screen_);
        cbreak();
        noecho();
        nodelay(stdscr, TRUE);
        keypad(stdscr, TRUE);
        curs_set(0);
        if (has_colors()) {
            start_color();
            use_default_colors();
            init_pair(1, COLOR_CYAN, -1);
            init_pair(2, COLOR_YELLOW, -1);
            init_pair(3, COLOR_GREEN, -1);
        }
    }

    static void thin(std::vector<Point>& pts) {
        std::vector<Point> out;
        for (std::size_t i = 0; i < pts.size(); i += 2) out.push_back(pts[i]);
        pts.swap(out);
    }

    void push_message(const std::string& line) {
        messages_.push_back(line);
        while (messages_.size() > 3) messages_.pop_front();
    }

    void poll_keys() {
        for (int ch = getch(); ch != ERR; ch = getch()) {
            if (names_.empty()) continue;
            if (ch == KEY_RIGHT || ch == 'l' || ch == '\t')
                selected_ = (selected_ + 1) % names_.size();
            else if (ch == KEY_LEFT || ch == 'h')
                selected_ = (selected_ + names_.size() - 1) % names_.size();
            else if (ch == 'r' || ch == 'R')
                recent_ = !recent_;
            else if (ch == 'q' || ch == 'Q') {
                stop_ = true;
                push_message(
                    "stopping after this step (a checkpoint is written when checkpointing is on)...");
            }
        }
    }

    void bar(int row, const char* label, double fraction, double eta) {
        int cols = COLS;
        fraction = std::clamp(fraction, 0.0, 1.0);
        int width = std::max(10, cols - 32);
        int filled = static_cast<int>(fraction * width + 0.5);
        mvprintw(row, 0, "%-6s [", label);
        attron(COLOR_PAIR(3));
        for (int i = 0; i < width; ++i) addch(i < filled ? '#' : '.');
        attroff(COLOR_PAIR(3));
        printw("] %3d%%  ETA %s", static_cast<int>(fraction * 100 + 0.5), format_duration(eta).c_str());
    }

    void plot(int top, int height, int width) {
        if (names_.empty() || height < 4 || width < 24) return;
        const std::string& name = names_[selected_ % names_.size()];
        std::string title = " " + name + (units_[name].empty() ? "" : " (" + units_[name] + ")") + "   ";
        mvprintw(top, 2, "%s", title.c_str());
        attron(COLOR_PAIR(1));
        printw("* train ");
        attroff(COLOR_PAIR(1));
        attron(COLOR_PAIR(2));
        printw("o valid");
        attroff(COLOR_PAIR(2));
        printw("   (%zu/%zu, left/right to switch; r: %s)", selected_ % names_.size() + 1, names_.size(),
               recent_ ? "last epoch, r for all" : "whole run, r for the last epoch");
        detail::PlotInput in;
        in.train = find(train_curve_, name);
        in.valid = find(valid_curve_, name);
        in.num_epochs = progress_.num_epochs;
        in.recent = recent_;
        const std::vector<std::string> rows = detail::render_plot(in, width - 1, height + 1);
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const std::string& line = rows[r];
            for (std::size_t c = 0; c < line.size(); ++c) {
                const int pair = line[c] == '*' ? 1 : line[c] == 'o' && c > 10 ? 2 : 0;
                if (pair) attron(COLOR_PAIR(pair));
                mvaddch(top + 1 + static_cast<int>(r), static_cast<int>(c), static_cast<chtype>(line[c]));
                if (pair) attroff(COLOR_PAIR(pair));
            }
        }
    }

    static const std::vector<Point>* find(const std::map<std::string, std::vector<Point> >& m,
                                          const std::string& k) {
        auto it = m.find(k);
        return it == m.end() ? nullptr : &it->second;
    }

    void draw() {
        last_draw_ = std::chrono::steady_clock::now();
        erase();
        const auto& p = progress_;
        mvprintw(0, 0,
                 "burn training   epoch %zu/%zu   %s %zu/%zu   [left/right] metric  [r] recent/all  [q] stop",
                 p.epoch, p.num_epochs, split_name(p.split), p.iteration, p.num_iterations);
        const int table_rows = static_cast<int>(names_.size()) + 1;
        const int plot_h = std::max(4, LINES - table_rows - 10);
        plot(1, plot_h, COLS);  // the title, then plot_h + 1 rows: points, the epoch axis and its labels
        int row = 3 + plot_h;
        mvprintw(row++, 0, "%-22s %16s %16s %16s", "metric", "train (epoch)", "train (last)",
                 "valid (epoch)");
        for (const auto& name : names_) {
            auto get = [&](const std::vector<MetricState>& ms, bool last) {
                for (const auto& m : ms)
                    if (m.name == name) return format_state(m, last);
                return std::string("-");
            };
            mvprintw(row++, 0, "%-22s %16s %16s %16s", name.c_str(), get(train_latest_, false).c_str(),
                     get(train_latest_, true).c_str(), get(valid_latest_, false).c_str());
        }
        const double epoch_frac =
            p.num_iterations ? static_cast<double>(p.iteration) / p.num_iterations : 0.0;
        const double epoch_eta =
            p.iteration ? p.epoch_seconds / p.iteration * (p.num_iterations - p.iteration) : NAN;
        if (run_start_fraction_ < 0) run_start_fraction_ = p.run_fraction;
        const double run_done = p.run_fraction - run_start_fraction_;
        const double run_eta = run_done > 1e-9 ? p.run_seconds / run_done * (1.0 - p.run_fraction) : NAN;
        bar(row++, split_name(p.split), epoch_frac, epoch_eta);
        bar(row++, "run", p.run_fraction, run_eta);
        for (const auto& m : messages_) mvprintw(row++, 0, "%.*s", COLS - 1, m.c_str());
        refresh();
    }

    SCREEN* screen_;
    bool done_ = false, stop_ = false;
    TrainingProgress progress_;
    std::vector<std::string> names_;
    std::map<std::string, std::string> units_;
    std::map<std::string, std::vector<Point> > train_curve_, valid_curve_;
    std::vector<MetricState> train_latest_, valid_latest_;
    std::deque<std::string> messages_;
    std::vector<std::string> epoch_lines_;
    std::size_t selected_ = 0;
    bool recent_ = false;
    double run_start_fraction_ = -1;
    std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace

std::unique_ptr<MetricsRenderer> make_tui_renderer() {
    if (!platform::stdout_is_terminal()) return nullptr;
    const char* term = std::getenv("TERM");
    if (!term || !*term || std::strcmp(term, "dumb") == 0) return nullptr;
    return TuiRenderer::create();
}

#endif

}  // namespace burn::train
