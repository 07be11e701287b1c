# `cudalab compare BASE NEW` and `cudalab export RESULTS` on the fixture runs of tests/fixtures/compare: 0 when
# nothing got slower, 11 when something did, 3 for what is not cudalab results, 2 for a bad command line.
set(cf ${PROJECT_SOURCE_DIR}/tests/fixtures/compare)
cudalab_add_cli_test(compare_help 0 "compare +Compare two runs' results" --help)
cudalab_add_cli_test(compare_help_lists_exit_code 0 "11 compare: a result got slower beyond the threshold and the noise" --help)
cudalab_add_cli_test(compare_same_run 0 "no regression: nothing got slower" compare ${cf}/base ${cf}/base)
cudalab_add_cli_test(compare_slower 11 "regression: 2 results slower beyond 5% and the noise" compare ${cf}/base ${cf}/new)
cudalab_add_cli_test(compare_slower_row 11 "  offset_read +3.500 us +4.200 us +\\+20.0 % +<0.001  slower" compare ${cf}/base ${cf}/new)
cudalab_add_cli_test(compare_unsure_row 11 "  offset_read +3.550 us +3.750 us +\\+5.6 % +0.082  unsure" compare ${cf}/base ${cf}/new)
cudalab_add_cli_test(compare_names_the_test 11 "no samples: threshold only" compare ${cf}/base ${cf}/new)
cudalab_add_cli_test(compare_results_json_files 11 "2 slower, 1 faster, 3 same, 2 unsure, 1 untimed, 1 added, 1 removed"
                     compare ${cf}/base/results.json ${cf}/new/results.json)
cudalab_add_cli_test(compare_interrupted_run 0 "0 slower, 0 faster, 4 same, 0 unsure, 0 untimed, 0 added, 6 removed"
                     compare ${cf}/base ${cf}/interrupted)
cudalab_add_cli_test(compare_threshold_above_the_changes 0 "0 slower, 0 faster, 8 same, 0 unsure" compare ${cf}/base ${cf}/new --threshold 50%)
cudalab_add_cli_test(compare_markdown 11 "^## `a.toml` — Offset copy" compare ${cf}/base ${cf}/new --format md)
cudalab_add_cli_test(compare_json 11 "\"verdict\": \"slower\"" compare ${cf}/base ${cf}/new --format json)
cudalab_add_cli_test(compare_not_a_results_folder 3 "compare: not a results folder \\(it has no results.json or results.jsonl\\)"
                     compare ${cf} ${cf}/new)
cudalab_add_cli_test(compare_broken_json 3 "broken/results.json: not a cudalab results.json: .*parse error" compare ${cf}/base ${cf}/broken)
cudalab_add_cli_test(compare_missing_folder 3 "no_such_run: no such file or folder" compare ${cf}/base ${cf}/no_such_run)
cudalab_add_cli_test(compare_lab_file_is_not_results 3 "testlab.toml: not a cudalab results.json" compare ${cf}/base ${fixtures}/testlab.toml)
cudalab_add_cli_test(compare_needs_two_runs 2 "new is required" compare ${cf}/base)
cudalab_add_cli_test(compare_bad_threshold 2 "--threshold: 'abc' is not a percentage of at least 0" compare ${cf}/base ${cf}/new --threshold abc)
cudalab_add_cli_test(compare_negative_threshold 2 "--threshold: '-1' is not a percentage of at least 0" compare ${cf}/base ${cf}/new --threshold=-1)
cudalab_add_cli_test(compare_bad_format 2 "--format: csv not in" compare ${cf}/base ${cf}/new --format csv)
cudalab_add_cli_test(compare_html 11 "<table id=\"compare-1\" class=\"sortable\"" compare ${cf}/base ${cf}/new --format html)
cudalab_add_cli_test(export_nvbench 0 "\"tag\": \"nv/cold/time/gpu/mean\"" export ${cf}/new)
cudalab_add_cli_test(export_nvbench_out 0 "wrote .*new.nvbench.json in NVBench's JSON layout"
                     export ${cf}/new --format nvbench --out ${CMAKE_CURRENT_BINARY_DIR}/new.nvbench.json)
cudalab_add_cli_test(export_not_results 3 "not a results folder" export ${cf})
cudalab_add_cli_test(export_bad_format 2 "--format: csv not in" export ${cf}/new --format csv)
# compare, export and plot refuse a results file over 256 MiB with exit 3, before reading it (a sparse
# file; the 2026-11-26 red-team review's F27).
add_test(NAME cli.redteam26_f27_huge_results_exit_3 COMMAND ${cli_dir}/huge_results.sh $<TARGET_FILE:cudalab>)
set_tests_properties(cli.redteam26_f27_huge_results_exit_3 PROPERTIES LABELS cli)
