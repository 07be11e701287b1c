// Small formatting pieces the reporters share: times, point labels, grouping, the one-line failure reason.
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/result.hpp"

namespace cudalab::host {

/// The time `t` in UTC as strftime's `format` writes it.
std::string utc_text(std::time_t t, const char* format);

/// `s` for a Markdown table cell, list item or heading: on one line, a '|' written as "\|", control
/// characters escaped (printable).
std::string md_text(const std::string& s);

/// `s` as Markdown inline code (file names, command lines), whatever backticks it holds, on one line,
/// control characters escaped.
std::string md_code(const std::string& s);
/// A time given in milliseconds in the unit that shows it with 4 significant digits: "999.9 ns",
/// "1.000 us", "12.34 us", "123.4 ms", "2.500 s" (units ns, us, ms, s; ASCII "us", as NVBench and
/// Google Benchmark print it, so that a table is the same bytes in every locale and terminal). A value
/// that would round to 1000 of a unit takes the next one (999.96 ns is "1.000 us"); seconds go on
/// past 1000 ("1234 s"); "-" for a negative or non-finite time.
std::string time_text(double ms);

/// `text` as a number when it is a finite one written whole, without spaces ("256", "0.5", "-3e2"), as
/// value_text writes swept values; nullopt for anything else ("random", "true", "1 2", "inf").
std::optional<double> number_in(const std::string& text);

/// "offset=1 n=256Mi" (empty when the lab file has no sweep).
std::string point_text(const variant_result& r);

/// The name shown for a variant: "memcpy (baseline)" for the baseline.
std::string variant_label(const variant_result& r);

/// Why a result is not ok, in one line: the error, or "3 of 1000 wrong (exact); [5] got ..., expected ...".
std::string failure_text(const variant_result& r);

/// A figure per request of loads and of stores as "loads/stores" with two decimals ("4.00/1.00"), "-"
/// for a side without requests; "" when neither side has any.
std::string per_side_text(std::uint64_t load_requests, double load, std::uint64_t store_requests, double store);

/// Predicted shared-memory bank conflicts per request as "loads/stores" ("31.00/0.00"; "-" for a side
/// without shared accesses), or "" when the variant has no shared accesses or no model.
std::string shared_conflicts_text(const variant_result& r);

/// Measured shared-memory bank conflicts per request (from the addresses, as the model predicts them)
/// as "loads/stores", like shared_conflicts_text; "" without counters or shared accesses.
std::string measured_shared_conflicts_text(const variant_result& r);

/// Measured global sectors per request as "loads/stores", like the model's ld and st s/r; "" without
/// counters or global loads and stores.
std::string measured_sectors_text(const variant_result& r);

/// What Nsight Compute counted, in the console's terms: "ld s/r 4.00, st s/r 1.00, sh cf ld/st
/// 2.85/1.75" (each kind of access the kernels made), "no kernel" when the variant launched none; ""
/// without counters.
std::string measured_text(const variant_result& r);

/// The note on a launch-bound result: "launch-bound: each launch ran 2.100 us on the GPU, shorter than the
/// host's launch interval; timed behind a blocking kernel (host-inclusive 4.500 us per launch)"; "" for
/// any other result.
std::string launch_bound_note(const variant_result& r);

/// The swept parameter names across results, in first-seen order.
std::vector<std::string> swept_names(const std::vector<variant_result>& results);
std::vector<std::string> swept_names(const std::vector<const variant_result*>& rows);

/// The value of swept parameter `name` in `r`, "" if it has none.
std::string point_value(const variant_result& r, const std::string& name);

/// The lab files of `results`, in the order they first appear.
std::vector<std::string> lab_files_of(const std::vector<variant_result>& results);

/// The results of one lab file, in run order.
std::vector<const variant_result*> rows_of(const std::vector<variant_result>& results, const std::string& lab_file);

/// Each lab file of `results` that gets a plot, in run order, with its plot's file name: the lab
/// file's stem with any character but letters, digits, '-', '_', '.' (not first) and non-ASCII bytes as
/// '_', and "-2", "-3", ... after it where the name is taken already (also in another case), so that
/// dirA/lab.toml's plot is lab.svg and dirB/lab.toml's lab-2.svg. write_plots writes these files
/// and the Markdown report links them.
std::vector<std::pair<std::string, std::string>> plot_files(const std::vector<variant_result>& results);

}  // namespace cudalab::host
