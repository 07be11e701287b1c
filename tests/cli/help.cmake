# The executable's own surface: --help, --version, unknown commands and options, --help wrapped to the
# width, and the bash completion.
cudalab_add_cli_test(help 0 "explain +Predict each variant" --help)
cudalab_add_cli_test(version 0 "^cudalab [0-9]+\\.[0-9]+\\.[0-9]+ \\(git ([0-9a-f]{12}(-dirty)?|unknown)\\)" --version)
cudalab_add_cli_test(version_names_the_build 0 "^built with CUDA [0-9]+\\.[0-9]+\\.[0-9]+ for GPU architectures [0-9]" --version)
cudalab_add_cli_test(version_names_the_runtime 0 "^CUDA runtime [0-9]+\\.[0-9]+. (the driver supports CUDA [0-9]+\\.[0-9]+|no NVIDIA driver found)" --version)
cudalab_add_cli_test(help_lists_exit_codes 0 "3 bad lab file, 4 plugin load failure" --help)
cudalab_add_cli_test(no_subcommand 2 "subcommand" )
cudalab_add_cli_test(unknown_subcommand 2 "unknown command .frobnicate. - commands: list" frobnicate)
cudalab_add_cli_test(unknown_option 2 "--bogus" validate --bogus x.toml)
# --help wrapped to the width, and the bash completion.
add_test(NAME cli.help_fits_the_width COMMAND ${cli_dir}/help_width.sh $<TARGET_FILE:cudalab>)
add_test(NAME cli.completion_bash COMMAND ${cli_dir}/completion.sh $<TARGET_FILE:cudalab> ${labs}
         ${CMAKE_BINARY_DIR}/tests/fake_labs)
set_tests_properties(cli.help_fits_the_width cli.completion_bash PROPERTIES LABELS cli)
set_property(TEST cli.completion_bash PROPERTY ENVIRONMENT CUDALAB_PLUGIN_PATH=)
# A plugin file's name is offered as a word, never run (the 2026-11-26 red-team review's F11).
add_test(NAME cli.redteam26_f11_completion_runs_no_file_name COMMAND ${cli_dir}/completion_file_names.sh
         $<TARGET_FILE:cudalab>)
set_tests_properties(cli.redteam26_f11_completion_runs_no_file_name PROPERTIES LABELS cli
                     ENVIRONMENT CUDALAB_PLUGIN_PATH=)
cudalab_add_cli_test(completion_unknown_shell 2 "shell: zsh not in \\{bash\\}" completion zsh)
