// Reading one [[test]] table of an assignment file (assignment_file.cpp reads the rest of the file).
#pragma once

#include <string>
#include <vector>

#include "assignment/assignment_file.hpp"
#include "labfile/toml_reader.hpp"

namespace cudalab::host {

/// Reads `key` of `r`'s table as a test's name (required): 1 to 64 letters, digits, '-' and '_', as the
/// name becomes file and folder names (tests/NAME.toml, perf-NAME-N/); anything else is the problem,
/// at the value. Returns the name as written.
std::string read_test_name(table_reader& r, const std::string& key);

/// The [[test]] `table` of the assignment `assignment_id`, its problems recorded in `problems` (located
/// in `file`): keys, types and ranges, the name (read_test_name), the keys its kind may not have, zero_at < full_at,
/// rounds <= max_rounds; its random axes drawn with default_draw_seed(assignment_id, name).
assignment_test read_test_table(const std::string& file, const toml::table& table, const std::string& assignment_id,
                                std::vector<lab_problem>& problems);

}  // namespace cudalab::host
