// Reading one [[test]] table of an assignment file (assignment_file.cpp reads the rest of the file).
#pragma once

#include <string>
#include <vector>

#include "assignment/assignment_file.hpp"
#include "labfile/toml_reader.hpp"

namespace cudalab::host {

/// The [[test]] `table` of the assignment `assignment_id`, its problems recorded in `problems` (located
/// in `file`): keys, types and ranges, the keys its kind may not have, zero_at < full_at, rounds <=
/// max_rounds; its random axes drawn with default_draw_seed(assignment_id, name).
assignment_test read_test_table(const std::string& file, const toml::table& table, const std::string& assignment_id,
                                std::vector<lab_problem>& problems);

}  // namespace cudalab::host
