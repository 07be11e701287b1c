# `cudalab validate`: lab files, run profiles and --set checked against the plugins, each problem located.
cudalab_add_cli_test(validate_good 0 "ok .* 2 point\\(s\\) x 3 variant\\(s\\)" validate ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(validate_bad_key 3 "bad_key.toml:6:1:.*blok.*block" validate ${fixtures}/bad_key.toml ${tp})
cudalab_add_cli_test(validate_missing_plugin 4 "no plugin 'no_such_lab'" validate ${fixtures}/missing_plugin.toml ${tp})
cudalab_add_cli_test(validate_missing_file 3 "does_not_exist.toml" validate ${fixtures}/does_not_exist.toml ${tp})
cudalab_add_cli_test(validate_set_override 0 "1 point\\(s\\)" validate ${fixtures}/testlab.toml --set n=64Ki ${tp})
cudalab_add_cli_test(validate_bad_set 3 "--set" validate ${fixtures}/testlab.toml --set n=-5 ${tp})
cudalab_add_cli_test(validate_unknown_variant 3 "no variant 'cpy'.*did you mean 'copy'" validate ${fixtures}/testlab.toml --variant cpy ${tp})
cudalab_add_cli_test(validate_faulty_labs 0 "faulty_wrong.toml: ok" validate ${fixtures}/faulty_crash.toml ${fixtures}/faulty_hang.toml ${fixtures}/faulty_wrong.toml ${fixtures}/faulty_setup.toml ${fp})
cudalab_add_cli_test(validate_sweep_over_max_points 3 "the sweep has 2 points \\(n: 2\\), more than measure.max_points = 1" validate ${fixtures}/testlab.toml --set measure.max_points=1 ${tp})
cudalab_add_cli_test(validate_non_ascii_key 3 ":4:1: TOML syntax error: character U\\+00D7 outside a string" validate ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus/non_ascii_key.toml ${tp})
cudalab_add_cli_test(profile_run_table 0 "testlab.toml: ok" validate --config ${fixtures}/isolate_profile.toml ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(profile_bad_run_table 3 "bad_run_profile.toml:4:1: unknown key 'timeout' in \\[run\\]. did you mean 'timeout_s'" validate --config ${fixtures}/bad_run_profile.toml ${fixtures}/testlab.toml ${tp})

# Every shipped lab file validates against its plugin (explicit list: a new lab file gets a line here).
set(lab_files alignment alignment_stride alignment_cache alignment_tuning aos_soa aos_soa_width reduction
    reduction_sizes reduction_blocks transpose transpose_shapes bank_conflicts mapped_pinned mapped_pinned_cycles
    histogram histogram_skew)
foreach(lab IN LISTS lab_files)
  cudalab_add_cli_test(validate_lab_${lab} 0 "${lab}.toml: ok" validate ${PROJECT_SOURCE_DIR}/labs/${lab}.toml)
endforeach()

# The red-team review of 2026-11-23 (findings about lab files, profiles and --set): one test or more per
# finding, named after it. Inputs that once hung or ate memory run under limited.sh (a time and a
# memory limit) and a CTest TIMEOUT, so a regression fails instead of stalling CI.
# cudalab_add_limited_cli_test(<name> <exit code> <regex> <seconds> <MiB> <kind> <args...>): like
# cudalab_add_cli_test, with `cudalab <args>` run by limited.sh (@FILE@ in args: its input of <kind>).
function(cudalab_add_limited_cli_test name code regex seconds mib kind)
  add_test(NAME cli.${name} COMMAND ${cli_dir}/expect_exit.sh ${code} ${regex} ${cli_dir}/limited.sh ${seconds} ${mib}
                                    ${kind} $<TARGET_FILE:cudalab> ${ARGN})
  math(EXPR ctest_timeout "${seconds} + 30")
  set_tests_properties(cli.${name} PROPERTIES LABELS cli SKIP_RETURN_CODE 77 TIMEOUT ${ctest_timeout})
endfunction()
cudalab_add_limited_cli_test(redteam_f13_fifo_lab_file 3 "input.toml: is not a regular file" 10 512 fifo validate @FILE@ ${tp})
cudalab_add_limited_cli_test(redteam_f13_dev_zero_lab_file 3 "/dev/zero: is not a regular file" 10 512 none validate /dev/zero ${tp})
cudalab_add_limited_cli_test(redteam_f13_dev_zero_profile 3 "/dev/zero: is not a regular file" 10 512 none
                             validate --config /dev/zero ${fixtures}/testlab.toml ${tp})
cudalab_add_limited_cli_test(redteam_f13_fifo_profile 3 "input.toml: is not a regular file" 10 512 fifo
                             validate --config @FILE@ ${fixtures}/testlab.toml ${tp})
cudalab_add_limited_cli_test(redteam_f13_big_lab_file 3 "input.toml: is too large \\(17825819 bytes\\), over the 16 MiB a lab file may have" 20 512 big
                             validate @FILE@ ${tp})
cudalab_add_cli_test(redteam_f30_directory_as_lab_file 3 "cli: is a directory, not a lab file" validate ${fixtures} ${tp})
set_tests_properties(cli.redteam_f30_directory_as_lab_file PROPERTIES ENVIRONMENT "CUDALAB_EXPECT_ABSENT=missing \\[lab\\]")
cudalab_add_cli_test(redteam_f08_min_time_zero_profile 3 "measure.min_time_ms = 0 is out of range"
                     validate --config ${fixtures}/redteam_min_time_zero_profile.toml ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(redteam_f10_min_time_inf 3 "--set measure.min_time_ms=inf: measure.min_time_ms = inf is not a finite number"
                     validate ${fixtures}/testlab.toml --set measure.min_time_ms=inf ${tp})
cudalab_add_limited_cli_test(redteam_f09_nan_step 3 "redteam_nan_step.toml:6:44: the range of 'tolerance': step must be a finite number" 10 512 none
                             validate ${fixtures}/redteam_nan_step.toml ${tp})
cudalab_add_limited_cli_test(redteam_f15_long_key 3 "input.toml:4:1: unknown parameter 'k+ … \\([0-9]{7} bytes left out\\) … k+' in \\[params\\]. testlab has: n, block"
                             20 512 long_key validate @FILE@ ${tp})
set_tests_properties(cli.redteam_f15_long_key PROPERTIES ENVIRONMENT "CUDALAB_EXPECT_ABSENT=k{2000}")
cudalab_add_limited_cli_test(redteam_f41_many_unknown_keys 3 "input.toml: … and 199950 more problems \\(200000 in all\\)" 20 512 many_keys validate @FILE@ ${tp})
set_tests_properties(cli.redteam_f41_many_unknown_keys PROPERTIES ENVIRONMENT "CUDALAB_EXPECT_ABSENT=zz50 ")
cudalab_add_cli_test(redteam_f29_utf8_bom 0 "redteam_utf8_bom.toml: ok" validate ${fixtures}/redteam_utf8_bom.toml ${tp})
cudalab_add_cli_test(redteam_f36_utf16 3 "redteam_utf16.toml:1:1: the file is UTF-16 \\(it starts with a UTF-16 byte-order mark\\), not UTF-8" validate ${fixtures}/redteam_utf16.toml ${tp})
set_tests_properties(cli.redteam_f36_utf16 PROPERTIES ENVIRONMENT "CUDALAB_EXPECT_ABSENT=U\\+")
cudalab_add_cli_test(redteam_f31_set_duplicate_variant 3 "^--set lab.variants=copy,copy: variant 'copy' is listed twice in lab.variants"
                     validate ${fixtures}/testlab.toml --set=lab.variants=copy,copy ${tp})
set_tests_properties(cli.redteam_f31_set_duplicate_variant PROPERTIES ENVIRONMENT "CUDALAB_EXPECT_ABSENT=testlab.toml:")
cudalab_add_cli_test(redteam_f38_set_empty_baseline 3 "^--set lab.baseline=: lab.baseline is empty"
                     validate ${fixtures}/testlab.toml --set lab.baseline= ${tp})
cudalab_add_cli_test(redteam_f20_variant_filter_selects_none 3 "--variant scale: none of the variants .*testlab.toml runs \\(memcpy, copy\\). name one of them"
                     validate ${fixtures}/testlab.toml --set=lab.variants=copy --variant=scale ${tp})

# More red-team findings (2026-11-23 review) about lab files and plugin names, whatever command meets them first:
# each test fails on the code the finding was about.
# F17: a repeatable option takes one value per occurrence; the lab files after it are lab files, all checked.
function(cudalab_add_greedy_test name)
  cudalab_add_cli_test(${name} 3 "bad_key.toml:6:1:.*blok" ${ARGN})
  set_tests_properties(cli.${name} PROPERTIES ENVIRONMENT "CUDALAB_EXPECT_ABSENT=expected KEY=VALUE|has no variant")
endfunction()
cudalab_add_greedy_test(redteam_f17_plugin_path_greedy validate ${tp} ${fixtures}/bad_key.toml ${fixtures}/testlab.toml)
cudalab_add_greedy_test(redteam_f17_set_greedy validate --set n=64Ki ${fixtures}/bad_key.toml ${fixtures}/testlab.toml ${tp})
cudalab_add_greedy_test(redteam_f17_set_equals_greedy explain --set=n=64Ki ${fixtures}/bad_key.toml ${fixtures}/testlab.toml ${tp})
cudalab_add_greedy_test(redteam_f17_variant_greedy run --variant copy ${fixtures}/bad_key.toml ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(redteam_f17_repeated_options_accumulate 0 "testlab.toml: ok .* 1 point\\(s\\) x 2 variant\\(s\\)"
                     validate --variant copy --set n=64Ki --variant memcpy ${fixtures}/testlab.toml --plugin-path /nonexistent ${tp})
# F2: a lab file's plugin is a name, never a path (loading a library runs its code): refused at the key,
# without loading it (the relative path is from the tests' folder, build/tests/cli, and exists there).
cudalab_add_cli_test(redteam_f02_plugin_path_relative 3 "plugin_as_path.toml:3:10: lab.plugin '../fake_labs/cudalab_testlab.so' is not a plugin name"
                     validate ${fixtures}/plugin_as_path.toml ${tp})
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/plugin_as_absolute_path.toml
     "[lab]\nplugin = \"${CMAKE_BINARY_DIR}/tests/fake_labs/cudalab_testlab.so\"\n")
cudalab_add_cli_test(redteam_f02_plugin_path_absolute 3 "plugin_as_absolute_path.toml:2:10: lab.plugin '.*' is not a plugin name"
                     explain ${CMAKE_CURRENT_BINARY_DIR}/plugin_as_absolute_path.toml ${tp})
cudalab_add_cli_test(redteam_f02_plugin_path_in_run 3 "plugin_as_path.toml:3:10: lab.plugin .* is not a plugin name"
                     run --isolate ${fixtures}/plugin_as_path.toml ${tp})
# Not loaded at all: a library whose initialiser crashes, named by its path, is refused without a crash.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/plugin_as_crashing_path.toml
     "[lab]\nplugin = \"${CMAKE_BINARY_DIR}/tests/fake_labs/init_faults/cudalab_crashing_init.so\"\n")
cudalab_add_cli_test(redteam_f02_plugin_path_never_loaded 3 "plugin_as_crashing_path.toml:2:10: lab.plugin .* is not a plugin name"
                     validate ${CMAKE_CURRENT_BINARY_DIR}/plugin_as_crashing_path.toml ${tp})
# A path is loaded only when given on the command line: describe PATH.
cudalab_add_cli_test(redteam_f02_describe_path_still_loads 0 "testlab — " describe ${CMAKE_BINARY_DIR}/tests/fake_labs/cudalab_testlab.so)
# A missing plugin is reported at the lab file's `plugin` key, with the nearest plugin installed.
cudalab_add_cli_test(redteam_f02_missing_plugin_at_its_key 4 "^missing_plugin.toml:3:10: no plugin 'no_such_lab' \\(looked for"
                     validate missing_plugin.toml ${tp})
set_tests_properties(cli.redteam_f02_missing_plugin_at_its_key PROPERTIES WORKING_DIRECTORY ${fixtures})
cudalab_add_cli_test(redteam_f02_missing_plugin_did_you_mean 4 "misspelt_plugin.toml:3:10: no plugin 'testlb'. did you mean 'testlab'\\?"
                     run ${fixtures}/misspelt_plugin.toml ${tp})
# F32: a control character in a plugin name is shown escaped (\x00, \x1b), never written raw to the terminal.
cudalab_add_cli_test(redteam_f32_nul_in_plugin_name_escaped 3 "'testlab\\\\x00x'" validate ${fixtures}/control_char_plugin_nul.toml ${tp})
cudalab_add_cli_test(redteam_f32_escape_in_plugin_name_escaped 3 "'\\\\x1b\\[31mred'" validate ${fixtures}/control_char_plugin_esc.toml ${tp})
string(ASCII 7 bell)
cudalab_add_cli_test(redteam_f32_bell_in_describe_escaped 4 "'a\\\\x07b' is not a plugin name" describe "a${bell}b" ${tp})
# F40: a sweep value listed twice, and one lab file given twice.
cudalab_add_cli_test(redteam_f40_duplicate_sweep_value 3 "1000 is listed more than once in the sweep of 'n'"
                     validate ${fixtures}/testlab.toml --set "sweep.n=[1000,2000,1000]" ${tp})
cudalab_add_cli_test(redteam_f40_duplicate_sweep_value_in_file 3 "redteam_duplicate_sweep.toml:9:12: 1024 is listed more than once in the sweep of 'n'"
                     validate ${fixtures}/redteam_duplicate_sweep.toml ${tp})
cudalab_add_cli_test(redteam_f40_same_lab_file_twice 3 "cli/../cli/testlab.toml: the same lab file as .*/cli/testlab.toml, given before it"
                     validate ${fixtures}/testlab.toml ${fixtures}/../cli/testlab.toml ${tp})

# Zipped sweeps ([[sweep.zip]]): a lab file whose groups of axes move together validates (2 fills x 3 (n, block)
# pairs: 6 points, not 18); bad groups are refused, each problem at file:line:column.
cudalab_add_cli_test(validate_zipped 0 "good_zip.toml: ok .* 6 point\\(s\\) x 2 variant\\(s\\)" validate ${zipped} ${tp})
set_tests_properties(cli.validate_zipped PROPERTIES WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
cudalab_add_cli_test(validate_zip_unequal_lengths 3 "bad_zip_unequal.toml:7:1: 'block' has 2 values and 'n', zipped with it, has 3"
                     validate ${bad_zip}_unequal.toml ${tp})
cudalab_add_cli_test(validate_zip_swept_twice 3 "bad_zip_swept_twice.toml:10:1: parameter 'block' is swept twice: already at line 6"
                     validate ${bad_zip}_swept_twice.toml ${tp})
cudalab_add_cli_test(validate_zip_in_two_groups 3 "bad_zip_in_two_groups.toml:11:1: parameter 'n' is swept twice: already at line 6"
                     validate ${bad_zip}_in_two_groups.toml ${tp})
cudalab_add_cli_test(validate_zip_unknown_param 3 "bad_zip_unknown_param.toml:7:1: unknown parameter 'blok' in \\[\\[sweep.zip\\]\\]. did you mean 'block'"
                     validate ${bad_zip}_unknown_param.toml ${tp})
cudalab_add_cli_test(validate_zip_empty_group 3 "bad_zip_empty_group.toml:5:1: an empty \\[\\[sweep.zip\\]\\] group"
                     validate ${bad_zip}_empty_group.toml ${tp})
cudalab_add_cli_test(validate_zip_bad_value 3 "bad_zip_value.toml:7:14: in the sweep of 'block': 'block' = 2048 is out of range"
                     validate ${bad_zip}_value.toml ${tp})
cudalab_add_cli_test(validate_zip_not_tables 3 "bad_zip_not_tables.toml:6:7: sweep.zip must be \\[\\[sweep.zip\\]\\] tables"
                     validate ${bad_zip}_not_tables.toml ${tp})
cudalab_add_cli_test(validate_zip_repeated_point 3 "bad_zip_repeated_point.toml:5:1: the point block=32 rounds=1 comes twice"
                     validate ${bad_zip}_repeated_point.toml ${tp})
