# A lab author's mistakes (tests/fake_labs/mistakes): each is reported naming the lab and the function,
# never the lab file that happened to use it and never as an internal error.
set(mp --plugin-path ${CMAKE_BINARY_DIR}/tests/fake_labs/mistakes)
function(cudalab_add_mistake_test name code regex)
  cudalab_add_cli_test(mistake_${name} ${code} ${regex} ${ARGN})
  set_tests_properties(cli.mistake_${name} PROPERTIES ENVIRONMENT "CUDALAB_EXPECT_ABSENT=internal error|mistake_[a-z_]+\\.toml:")
endfunction()
cudalab_add_mistake_test(default_out_of_range 4 "bad_default: spec\\(\\): parameter 'n': its default is wrong: 'n' = 2048 is out of range \\[1, 1024\\]"
                         validate ${fixtures}/mistake_bad_default.toml ${mp})
cudalab_add_mistake_test(duplicate_variant 4 "duplicate_variant: spec\\(\\): variant 'copy' is declared twice"
                         validate ${fixtures}/mistake_duplicate_variant.toml ${mp})
cudalab_add_mistake_test(throwing_trace 8 "throwing_trace: trace\\(copy\\): no parameter 'blocks' \\(the lab declares: n\\)"
                         explain ${fixtures}/mistake_throwing_trace.toml ${mp})
cudalab_add_mistake_test(zero_traffic 8 "zero_traffic: traffic_of\\(copy\\): returned 0 bytes"
                         validate ${fixtures}/mistake_zero_traffic.toml ${mp})
cudalab_add_mistake_test(stale_abi 4 "cudalab_stale_abi.so: built against other plugin headers \\(ABI hash [0-9a-f]+\\) than this cudalab's"
                         validate ${fixtures}/mistake_stale_abi.toml ${mp})
cudalab_add_mistake_test(list_names_each_broken_spec 4 "^  bad_default: spec\\(\\): parameter .n.: its default is wrong" list ${mp})
# These two need a GPU: setup() runs there.
cudalab_add_gpu_cli_test(mistake_no_output 8 "no_output: setup\\(\\): registered no output"
                         run ${fixtures}/mistake_no_output.toml ${mp} --force --out ${rb}/no_output)
cudalab_add_gpu_cli_test(mistake_throwing_trace_in_a_run 8 "throwing_trace: trace\\(copy\\): no parameter 'blocks'"
                         run ${fixtures}/mistake_throwing_trace.toml ${mp} --force --out ${rb}/throwing_trace)
