# `cudalab report RESULTS`: report.html again from a run's results (its page in a browser: tests/html/).
cudalab_add_cli_test(report_help 0 "report +Write a run's report.html again from its results" --help)
cudalab_add_cli_test(report_writes_the_page 0 "tests/report_cli.html" report ${PROJECT_SOURCE_DIR}/tests/fixtures/plots/h100-reduction
                     --out ${CMAKE_BINARY_DIR}/tests/report_cli.html)
cudalab_add_cli_test(report_no_results 3 "no_such_run: no such file or folder" report ${CMAKE_BINARY_DIR}/no_such_run)
cudalab_add_cli_test(report_unwritable 9 "cannot write .*/no_such_folder/report.html" report
                     ${PROJECT_SOURCE_DIR}/tests/fixtures/plots/h100-reduction --out ${CMAKE_BINARY_DIR}/no_such_folder/report.html)
