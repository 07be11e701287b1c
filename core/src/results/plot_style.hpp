// How a plot tells its series apart: a colour, a marker and a dash pattern for each, distinct for the
// first 20, so that series stay apart in greyscale and for readers who do not see every colour.
#pragma once

#include <cstddef>

namespace cudalab::host {

/// The shape drawn at each point of a series.
enum class marker_shape { circle, square, triangle_up, diamond, triangle_down, cross, plus };

/// The look of one series.
struct series_style {
  const char* colour;  ///< "#rrggbb"
  marker_shape marker;
  bool dashed;  ///< the second ten series are drawn dashed
};

/// How many series get a style of their own; series after that repeat the first ones'.
constexpr std::size_t distinct_styles = 20;

/// The style of series `i` (counted from 0): ten strong colours, then ten dark ones drawn dashed; the
/// markers cycle through seven shapes, so no two of the first 20 series share colour, marker and dash.
series_style style_of(std::size_t i);

}  // namespace cudalab::host
