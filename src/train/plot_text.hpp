#pragma once
// The dashboard's plot as text (tui.cpp draws it): a metric's train and valid points against the run's
// progress, with the value axis labelled at its top, middle and bottom, and the progress axis in epochs
// (ticks at epoch boundaries, the ends labelled). "Recent" shows only the last epoch's worth of the run,
// its value axis fitted to those points, so a flattening loss stays readable late in a long run.
#include <cstddef>
#include <string>
#include <vector>

namespace burn::train::detail {

struct PlotPoint {
    double x;  // run fraction, 0 at the start and 1 at the end of the run
    double y;
};

struct PlotInput {
    const std::vector<PlotPoint>* train = nullptr;
    const std::vector<PlotPoint>* valid = nullptr;
    std::size_t num_epochs = 1;
    bool recent = false;
};

/// `height` rows of `width` characters: height - 2 rows of points ('*' train, 'o' valid, drawn over
/// train) right of the value axis ('|', labels in the 10 columns before it), the progress axis ('+' and
/// '-', '+' at epoch boundaries) and its labels ("epoch" and the epoch numbers). Empty rows when there
/// is nothing to plot or the area is too small (width < 24 or height < 5).
std::vector<std::string> render_plot(const PlotInput& in, int width, int height);

/// Where the points of `in` span: [x_lo, x_hi] and [y_lo, y_hi] (after recent's cut; the value range
/// widened by 0.5 each way when flat). false when there is no finite point.
bool plot_range(const PlotInput& in, double& x_lo, double& x_hi, double& y_lo, double& y_hi);

}  // namespace burn::train::detail
