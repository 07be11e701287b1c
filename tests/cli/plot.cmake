# `cudalab plot RESULTS` on H100 runs kept as fixtures, --png with and without rsvg-convert.
add_test(NAME cli.plot COMMAND ${cli_dir}/plot.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR}/tests/fixtures
         ${CMAKE_BINARY_DIR}/tests/plot_cli)
set_tests_properties(cli.plot PROPERTIES LABELS cli)
cudalab_add_cli_test(plot_help 0 "plot +Draw a run's plots again from its results" --help)
