# `cudalab explain`: the access model's predictions, without a GPU.
cudalab_add_cli_test(explain_testlab 0 "copy +[0-9]+ +4.00 +100%" explain ${fixtures}/testlab.toml --set n=1Mi ${tp})
cudalab_add_cli_test(explain_testlab_sweep_summary 0 "copy +ld sectors +3.91 +4.00" explain ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(explain_json 0 "\"sectors_per_request\": 4.0" explain --format json ${fixtures}/testlab.toml ${tp})
# --totals (issue 34): requests, sectors and wavefronts over the run beside the ratios, first where the
# columns do not all fit (at 48 columns the totals alone; without --totals the ratios alone): 1Mi floats
# are 32768 warp loads of 4 sectors each, and as many stores.
cudalab_add_cli_test(explain_totals 0 "copy +32768 +131072 +4.00 +100% +32768 +131072 +4.00 +100%"
                     explain ${fixtures}/testlab.toml --set n=1Mi --set block=128 --totals --wide ${tp})
cudalab_add_cli_test(explain_totals_narrow 0 "copy +32768 +131072 +32768 +131072"
                     explain ${fixtures}/testlab.toml --set n=1Mi --set block=128 --totals ${tp})
set_tests_properties(cli.explain_totals_narrow PROPERTIES ENVIRONMENT "CUDALAB_TEST_COLUMNS=48")
cudalab_add_cli_test(explain_totals_sweep 0 "ld sectors total +[0-9]+ +131072" explain ${fixtures}/testlab.toml --totals ${tp})

# The access model's predictions that the lab issues name, through `cudalab explain` on the shipped labs.
cudalab_add_cli_test(explain_alignment_offset0 0 "offset_read +[0-9]+ +4.00 +100%" explain ${labs}/alignment.toml --set offset=0)
cudalab_add_cli_test(explain_alignment_offset1 0 "offset_read +[0-9]+ +5.00 +80%" explain ${labs}/alignment.toml --set offset=1)
cudalab_add_cli_test(explain_alignment_offset31 0 "offset_write +[0-9]+ +4.00 +100% +[0-9]+ +5.00 +80%" explain ${labs}/alignment.toml --set offset=31)
cudalab_add_cli_test(explain_alignment_offset32 0 "offset_copy +[0-9]+ +4.00 +100% +[0-9]+ +4.00 +100%" explain ${labs}/alignment.toml --set offset=32)
cudalab_add_cli_test(explain_alignment_stride2 0 "strided +[0-9]+ +8.00 +50%" explain ${labs}/alignment_stride.toml --set stride=2)
cudalab_add_cli_test(explain_alignment_stride8 0 "strided +[0-9]+ +32.00 +12%" explain ${labs}/alignment_stride.toml --set stride=8)
cudalab_add_cli_test(explain_aos_one_field 0 "aos_one +[0-9]+ +8.00 +50% +[0-9]+ +8.00 +50%" explain ${labs}/aos_soa.toml)
cudalab_add_cli_test(explain_soa_one_field 0 "soa_one +[0-9]+ +16.00 +100% +[0-9]+ +16.00 +100%" explain ${labs}/aos_soa.toml)
cudalab_add_cli_test(explain_reduction_strided_conflicts 0 "interleaved_strided .* 3.80 +2.80 " explain ${labs}/reduction.toml)
cudalab_add_cli_test(explain_reduction_sequential_no_conflicts 0 "sequential .* 1.00 +0.00 +1.00 +0.00" explain ${labs}/reduction.toml)
cudalab_add_cli_test(explain_transpose_tile 0 "tile .* 32.00 +31.00 +1.00 +0.00" explain ${labs}/transpose.toml --set block_rows=8)
cudalab_add_cli_test(explain_transpose_padded 0 "padded .* 1.00 +0.00 +1.00 +0.00" explain ${labs}/transpose.toml --set block_rows=8)
# Contention on atomics (exact at 1 Mi values): lanes on one counter served one after another (skewed), lanes
# scattered over 256 counters (uniform), lanes on consecutive counters (cyclic); warp aggregation's one lane a bin;
# in shared memory the lanes on one counter combined (a hot bin costs no conflict).
cudalab_add_cli_test(explain_histogram_contention 0 "atomic sectors +22\\.25 +31\\.79 +4\\.00"
                     explain ${labs}/histogram.toml --set n=1Mi --set bins=256)
cudalab_add_cli_test(explain_histogram_shared_combined 0 "sh atomic conflicts +0\\.00 +0\\.20 +0\\.23"
                     explain ${labs}/histogram.toml --set n=1Mi --set distribution=skewed)
# An atomic lab's explain at 80 columns keeps its atomic sectors (they outrank wavefronts and request counts), and a
# column every variant leaves empty (the histogram has no global store) is not shown, even with --wide.
cudalab_add_cli_test(explain_histogram_narrow_keeps_atomics 0 "variant +ld s/r .* atom s/r"
                     explain ${labs}/histogram.toml --set n=1Mi --set distribution=skewed --set bins=256)
set_tests_properties(cli.explain_histogram_narrow_keeps_atomics PROPERTIES ENVIRONMENT CUDALAB_TEST_COLUMNS=80)
cudalab_add_cli_test(explain_drops_empty_columns 0 "atom s/r"
                     explain --wide ${labs}/histogram.toml --set n=1Mi --set distribution=skewed --set bins=256)
set_tests_properties(cli.explain_drops_empty_columns PROPERTIES ENVIRONMENT "CUDALAB_EXPECT_ABSENT=st s/r|st req")
cudalab_add_cli_test(explain_histogram_aggregated 0 "atomic sectors +2\\.67 +3\\.97 +4\\.20"
                     explain ${labs}/histogram.toml --set n=1Mi --set distribution=skewed --variant warp_aggregated)
cudalab_add_cli_test(explain_transpose_summary_conflicts 0 "^ +sh ld conflicts +31.00 +31.00 +31.00$" explain ${labs}/transpose.toml --variant tile)

# The console that fits: explain's one-axis summary against golden files at 80 and 120
# columns and --wide (tests/cli/golden_output.sh; CUDALAB_UPDATE_GOLDEN=1 rewrites them), per-point
# blocks for two axes.
set(golden ${PROJECT_SOURCE_DIR}/tests/fixtures/golden)
foreach(width 80 120 wide)
  set(args explain labs/alignment.toml)  # relative: the golden file holds the name
  set(columns ${width})
  if(width STREQUAL "wide")
    list(APPEND args --wide)
    set(columns 80)
  endif()
  add_test(NAME cli.explain_sweep_summary_${width}
           COMMAND ${cli_dir}/golden_output.sh ${golden}/explain_alignment_${width}.txt $<TARGET_FILE:cudalab> ${args})
  set_tests_properties(cli.explain_sweep_summary_${width} PROPERTIES LABELS cli ENVIRONMENT COLUMNS=${columns}
                       WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()
cudalab_add_cli_test(explain_two_axes_per_point 0 "^labs/alignment_tuning.toml  \\[block=32 unroll=1\\]$"
                     explain labs/alignment_tuning.toml)
set_tests_properties(cli.explain_two_axes_per_point PROPERTIES WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
cudalab_add_cli_test(explain_bank_stride8 0 "read_4b .* 8.00 +7.00" explain ${labs}/bank_conflicts.toml --set stride=8)
cudalab_add_cli_test(explain_mapped_strided 0 "mapped_strided +[0-9]+ +32.00 +12%" explain ${labs}/mapped_pinned.toml)
# A zipped sweep explained point by point; a bad group refused as validate refuses it.
cudalab_add_cli_test(explain_zipped 0 "^tests/fixtures/labs/good_zip.toml  \\[fill=ramp n=4099 block=128\\]$"
                     explain ${zipped} ${tp})
set_tests_properties(cli.explain_zipped PROPERTIES WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
cudalab_add_cli_test(explain_zip_unequal_lengths 3 "bad_zip_unequal.toml:7:1: 'block' has 2 values"
                     explain ${bad_zip}_unequal.toml ${tp})
