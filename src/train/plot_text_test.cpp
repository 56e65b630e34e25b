// The dashboard's plot as text: value labels at the top, middle and bottom, the epoch axis with its
// boundaries and labels, points where their values and progress put them, valid drawn over train, and
// "recent" showing only the last epoch's worth with the value axis fitted to it.
#include "train/plot_text.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace plot_text_test {

namespace {

using burn::train::detail::PlotInput;
using burn::train::detail::PlotPoint;
using burn::train::detail::render_plot;

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

TEST(DashboardPlot, AxesLabelsAndPoints) {
    // a loss from 4 down to 0 over 2 of 4 epochs, one point per quarter epoch
    std::vector<PlotPoint> train;
    for (int i = 0; i <= 8; ++i) train.push_back({i / 16.0, 4.0 - i * 0.5});
    std::vector<PlotPoint> valid = {{0.25, 2.0}, {0.5, 1.0}};
    PlotInput in{&train, &valid, 4, false};
    const int width = 51, height = 11;  // 9 rows of points, 40 columns right of the axis
    const auto rows = render_plot(in, width, height);
    ASSERT_EQ(rows.size(), 11u);
    for (const auto& r : rows) EXPECT_EQ(r.size(), 51u);
    EXPECT_EQ(trim(rows[0].substr(0, 10)), "4");  // top, middle and bottom values
    EXPECT_EQ(trim(rows[4].substr(0, 10)), "2");
    EXPECT_EQ(trim(rows[8].substr(0, 10)), "0");
    for (int r = 0; r < 9; ++r) EXPECT_EQ(rows[static_cast<std::size_t>(r)][10], '|') << r;
    // the axis spans progress 0 .. 0.5 (2 epochs) over columns 11 .. 50: epoch boundaries 0, 1 and 2 at
    // columns 11, 31 (11 + 19.5, rounded) and 50
    EXPECT_EQ(rows[9].substr(10, 2), "++");
    EXPECT_EQ(rows[9][31], '+');
    EXPECT_EQ(rows[9][50], '+');
    EXPECT_EQ(rows[9][20], '-');
    EXPECT_EQ(trim(rows[10].substr(0, 10)), "epoch");
    EXPECT_EQ(rows[10][11], '0');
    EXPECT_EQ(rows[10][31], '1');
    EXPECT_EQ(rows[10][50], '2');
    // train's first point (0, 4) top left and its last (0.5, 0) bottom right; valid's (0.25, 2) drawn over
    // train's point there, and (0.5, 1) two rows above the bottom
    EXPECT_EQ(rows[0][11], '*');
    EXPECT_EQ(rows[8][50], '*');
    EXPECT_EQ(rows[4][31], 'o');
    EXPECT_EQ(rows[6][50], 'o');
}

TEST(DashboardPlot, RecentShowsTheLastEpochFitted) {
    // 3 epochs: a loss falling fast in the first, flat around 1.00 +- 0.01 in the last
    std::vector<PlotPoint> train;
    for (int i = 0; i <= 30; ++i) {
        const double x = i / 30.0;
        train.push_back({x, x < 2.0 / 3 ? 10.0 - 13.5 * x : 1.0 + 0.01 * std::sin(i)});
    }
    PlotInput all{&train, nullptr, 3, false};
    PlotInput recent{&train, nullptr, 3, true};
    const auto a = render_plot(all, 40, 8), r = render_plot(recent, 40, 8);
    EXPECT_EQ(trim(a[0].substr(0, 10)), "10");
    const double top = std::stod(trim(r[0].substr(0, 10))), bottom = std::stod(trim(r[5].substr(0, 10)));
    EXPECT_LT(top, 1.02);  // the value axis spans the last epoch's points only
    EXPECT_GT(bottom, 0.98);
    EXPECT_EQ(r[7].substr(11, 1), "2");  // the progress axis starts at epoch 2 and ends at 3
    EXPECT_EQ(trim(r[7]).back(), '3');
    int points = 0;
    for (int row = 0; row < 6; ++row)
        for (char c : r[static_cast<std::size_t>(row)]) points += c == '*';
    EXPECT_GE(points, 8);  // the 11 points of the last epoch (some share a cell), none of the others
    EXPECT_LE(points, 11);
}

TEST(DashboardPlot, NothingToDrawOrNoRoom) {
    std::vector<PlotPoint> none, nan = {{0.1, NAN}};
    for (const auto& rows : {render_plot(PlotInput{&none, nullptr, 1, false}, 40, 8),
                             render_plot(PlotInput{&nan, nullptr, 1, false}, 40, 8),
                             render_plot(PlotInput{&nan, nullptr, 1, false}, 10, 3)})
        for (const auto& r : rows) EXPECT_EQ(trim(r), "");
    // one point: a flat range around it, mid-height
    std::vector<PlotPoint> one = {{0.5, 3.0}};
    const auto rows = render_plot(PlotInput{&one, nullptr, 2, false}, 40, 7);
    EXPECT_EQ(trim(rows[0].substr(0, 10)), "3.5");
    EXPECT_EQ(trim(rows[4].substr(0, 10)), "2.5");
}

}  // namespace

}  // namespace plot_text_test
