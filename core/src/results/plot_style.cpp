// Series styles: Matplotlib's "tab10" colours first, then ten darker hues of other families; dash
// patterns for a second parameter.
#include "results/plot_style.hpp"

namespace cudalab::host {

namespace {

const char* const colours[distinct_styles] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
    "#08306b", "#67000d", "#00441b", "#a63603", "#3f007d", "#543005", "#ae017e", "#252525", "#666600", "#006d77"};

const marker_shape shapes[] = {marker_shape::circle,  marker_shape::square,        marker_shape::triangle_up,
                               marker_shape::diamond, marker_shape::triangle_down, marker_shape::cross,
                               marker_shape::plus};

// Told apart at a line width of 1.5 px and a glance: solid, dashed, dotted, dash-dot, long dashes.
const char* const dashes[distinct_dashes] = {"", "6 3", "1.5 2.5", "8 3 1.5 3", "14 4"};

}  // namespace

series_style style_of(std::size_t i) {
  const std::size_t k = i % distinct_styles;
  return {colours[k], shapes[k % (sizeof shapes / sizeof *shapes)]};
}

const char* dash_of(std::size_t k) { return dashes[k % distinct_dashes]; }

}  // namespace cudalab::host
