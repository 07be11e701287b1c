# `cudalab list`: the plugins on the search path, the broken ones named with their reason.
cudalab_add_cli_test(list_test_plugins 0 "testlab +Test lab" list ${tp})
cudalab_add_cli_test(list_reports_broken_plugin 4 "bad_abi.*ABI version" list --plugin-path ${CMAKE_BINARY_DIR}/tests/fake_labs/faulty)

# Red-team findings (2026-11-23 review) about list.
# F26: a plugin hidden by one of the same name earlier on the search path is reported by list; a plugin
# whose spec's name is not its file's is refused (tests/fake_labs/shadow holds testlab as cudalab_alignment.so).
set(shadow ${CMAKE_BINARY_DIR}/tests/fake_labs/shadow)
cudalab_add_cli_test(redteam_f26_list_reports_shadowed_plugin 4
                     "cudalab: .*/lib/cudalab/plugins/cudalab_alignment.so is not used: .*/shadow/cudalab_alignment.so, earlier on the search path, has its name"
                     list --plugin-path ${shadow})
cudalab_add_cli_test(redteam_f26_spec_name_checked_against_file_name 4 "alignment: spec\\(\\): its name is 'testlab' but its file is cudalab_alignment.so"
                     validate ${PROJECT_SOURCE_DIR}/labs/alignment.toml --plugin-path ${shadow})
cudalab_add_cli_test(redteam_f26_same_folder_twice_is_not_shadowing 0 "testlab +Test lab"
                     list ${tp} ${tp})
set_tests_properties(cli.redteam_f26_same_folder_twice_is_not_shadowing PROPERTIES ENVIRONMENT "CUDALAB_EXPECT_ABSENT=is not used")
# F12: list loads each plugin in a child process: one whose static initialiser crashes or hangs is
# reported as skipped, and the plugins after it are still listed (init_faults/ holds the two; testlab
# follows on the search path).
set(init_faults --plugin-path ${CMAKE_BINARY_DIR}/tests/fake_labs/init_faults ${tp})
cudalab_add_cli_test(redteam_f12_list_survives_crashing_init 4
                     "skipped cudalab_crashing_init.so: loading it was killed by signal SIGSEGV" list ${init_faults} --timeout 3)
cudalab_add_cli_test(redteam_f12_list_survives_hanging_init 4
                     "skipped cudalab_hanging_init.so: loading it timed out after 3 s" list ${init_faults} --timeout 3)
cudalab_add_cli_test(redteam_f12_list_goes_on_after_faulty_init 4 "^testlab +Test lab" list ${init_faults} --timeout 3)
set_tests_properties(cli.redteam_f12_list_survives_crashing_init cli.redteam_f12_list_survives_hanging_init
                     cli.redteam_f12_list_goes_on_after_faulty_init PROPERTIES TIMEOUT 30)
cudalab_add_cli_test(redteam_f12_list_timeout_checked 2 "--timeout: '0' is not a number of seconds" list --timeout 0 ${tp})
