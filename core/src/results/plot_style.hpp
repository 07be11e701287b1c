// How a plot tells its series apart: each variant a colour and a marker of its own, the same in every
// plot of a run (distinct for the first 20 variants, markers so that neighbours differ without colour),
// and a dash pattern for each value of a second swept parameter.
#pragma once

#include <cstddef>

namespace cudalab::host {

/// The shape drawn at each point of a series.
enum class marker_shape { circle, square, triangle_up, diamond, triangle_down, cross, plus };

/// The look of one variant.
struct series_style {
  const char* colour;  ///< "#rrggbb"
  marker_shape marker;
};

/// How many variants get a colour of their own; later ones repeat the first ones'.
constexpr std::size_t distinct_styles = 20;

/// The style of variant `i` (counted from 0): ten strong colours, then ten dark ones; the markers cycle
/// through seven shapes, so no two of the first 20 share colour and marker, and neighbours differ in both.
series_style style_of(std::size_t i);

/// How many values of a second swept parameter get a dash pattern of their own.
constexpr std::size_t distinct_dashes = 5;

/// The dash pattern of value `k` (counted from 0) of a second swept parameter, as an SVG dash array:
/// "" (solid) for the first, then dashed, dotted, dash-dot and long-dashed; later ones repeat.
const char* dash_of(std::size_t k);

}  // namespace cudalab::host
