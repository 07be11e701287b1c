# `cudalab run`: its options, whole runs on the fake CUDA runtime (and on a GPU where there is one), the
# faults a run survives, the census, the console, the GPUs' state and retuned sweeps.
cudalab_add_cli_test(run_help 0 "--variant" run --help)
cudalab_add_cli_test(run_bad_file_fails_before_gpu 3 "blok" run ${fixtures}/bad_key.toml ${tp})
# Only meaningful where there is no GPU (CI): run names the cause and what still works.
cudalab_add_cli_test(run_without_gpu 5 "still work: cudalab list" run ${fixtures}/testlab.toml ${tp})
set_tests_properties(cli.run_without_gpu PROPERTIES ENVIRONMENT CUDALAB_SKIP_IF_GPU=1)
# --device N: one CUDA ordinal, not with --devices; without a GPU it says which it wanted.
cudalab_add_cli_test(run_device_not_a_number 2 "--device: 'x' is not a GPU. write one CUDA ordinal counted from 0, e.g. --device 1"
                     run --device x ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(run_device_list 2 "'0,1' is not a GPU. .*\\(--devices spreads a run over several\\)"
                     run --device 0,1 ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(run_device_negative 2 "'-1' is not a GPU" run --device=-1 ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(run_device_past_1023 2 "'1024' is not a GPU" run --device 1024 ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(run_device_with_devices 2 "--device and --devices cannot go together"
                     run --device 0 --devices 0,1 ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(run_device_without_gpu 5 "GPU 0 of --device cannot run these lab files"
                     run --device 0 ${fixtures}/testlab.toml ${tp})
set_tests_properties(cli.run_device_without_gpu PROPERTIES ENVIRONMENT CUDALAB_SKIP_IF_GPU=1)

# Robustness: isolation, the watchdog, faulty plugins, limits, sanitizers.
cudalab_add_cli_test(run_help_isolate 0 "kill a child process that goes SECONDS without sending a result" run --help)
cudalab_add_cli_test(run_help_sanitize 0 "compute-sanitizer --tool TOOL \\(memcheck, racecheck, synccheck" run --help)
cudalab_add_cli_test(run_bad_isolate 2 "--isolate: bogus not in" run --isolate=bogus ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(run_bad_timeout 2 "--timeout" run --timeout -3 ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(run_bad_sanitize_tool 2 "--sanitize: leakcheck not in" run --sanitize=leakcheck ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(run_isolate_bad_file_fails_before_gpu 3 "blok" run --isolate ${fixtures}/bad_key.toml ${tp})
cudalab_add_cli_test(run_isolate_without_gpu 5 "still work: cudalab list" run --isolate=variant ${fixtures}/testlab.toml ${tp})
set_tests_properties(cli.run_isolate_without_gpu PROPERTIES ENVIRONMENT CUDALAB_SKIP_IF_GPU=1)
cudalab_add_cli_test(run_sweep_over_max_points 3 "more than measure.max_points = 1" run --isolate ${fixtures}/testlab.toml --set measure.max_points=1 ${tp})
cudalab_add_cli_test(run_zip_unequal_lengths_fails_before_gpu 3 "bad_zip_unequal.toml:7:1: 'block' has 2 values"
                     run ${bad_zip}_unequal.toml ${tp})

# A whole run of the test lab, its result files, and exit 6 when verification fails. Each names its results
# folder, and --force lets ctest run it again.
cudalab_add_gpu_cli_test(run_testlab 0 "copy .* ok" run ${fixtures}/testlab.toml ${tp} --force --out ${rb}/cli_run)
# A zipped sweep runs its 6 points (2 fills x 3 (n, block) pairs) with both variants, each verified.
cudalab_add_gpu_cli_test(run_zipped 0 "cudalab: 12 result\\(s\\) in"
                         run ${PROJECT_SOURCE_DIR}/tests/fixtures/labs/good_zip.toml ${tp} --force --out ${rb}/zipped)
cudalab_add_gpu_cli_test(verify_failure 6 "failed verification" run ${fixtures}/verify_fails.toml ${tp} --force --out ${rb}/cli_fail)
cudalab_add_gpu_cli_test(fault_illegal_address 7 "stopped early after a CUDA error that leaves the GPU unusable: .*cudaErrorIllegalAddress"
                         run ${fixtures}/faulty_crash.toml ${fp} --force --out ${rb}/crash)
cudalab_add_gpu_cli_test(fault_setup_throws 8 "faultlab: setup\\(\\): faultlab setup refuses on purpose"
                         run --format json ${fixtures}/faulty_setup.toml ${fp} --force --out ${rb}/setup)
cudalab_add_gpu_cli_test(fault_wrong_output 6 "1 variant\\(s\\) failed verification" run ${fixtures}/faulty_wrong.toml ${fp} --force --out ${rb}/wrong)
# [measure] verify_after_timing: a variant that copies on its first launch only passes the verified run before
# timing and fails the one after it, named as such (on a GPU its short kernel is timed as a graph, whose launches
# are not counted); without the key it passes (in process and isolated).
cudalab_add_gpu_cli_test(fault_lazy_fails_after_timing 6
                         "failed after timing: the output was right on the first launch and wrong after ([0-9]+ timed launches|its timed launches \\(a CUDA graph\\))"
                         run --format json ${fixtures}/faulty_lazy.toml ${fp} --force --out ${rb}/lazy)
cudalab_add_gpu_cli_test(fault_lazy_fails_after_timing_isolated 6 "failed after timing: the output was right on the first launch"
                         run --isolate=variant --format json ${fixtures}/faulty_lazy.toml ${fp} --force --out ${rb}/lazy_isolated)
cudalab_add_gpu_cli_test(fault_lazy_passes_without_verify_after_timing 0 "lazy .* ok"
                         run ${fixtures}/faulty_lazy.toml --set measure.verify_after_timing=false ${fp} --force --out ${rb}/lazy_off)
# [measure] census: each verified run's kernels by name (CUPTI on a GPU, the fake CUPTI on the fake runtime), in
# process and through an isolated child's result lines; a CUPTI that refuses or is missing leaves the reason and a run
# that goes on (exit 0).
cudalab_add_gpu_cli_test(census_names_the_kernels 0 "\"name\": \"testlab::scale_kernel\\(float const\\*, float\\*, unsigned long, int\\)\""
                         run --format json ${fixtures}/testlab.toml --set n=1000 --set measure.census=true ${tp} --force --out ${rb}/census)
cudalab_add_gpu_cli_test(census_from_isolated_children 0 "\"name\": \"testlab::copy_kernel\\(float const\\*, float\\*, unsigned long\\)\""
                         run --isolate=variant --format json ${fixtures}/testlab.toml --set n=1000 --set measure.census=true ${tp} --force --out ${rb}/census_isolated)
# A census needs every kernel loaded when CUDA starts (lazy loading hid work left running on the H100): the run sets
# CUDA_MODULE_LOADING=EAGER before CUDA starts, and its children inherit it.
cudalab_add_gpu_cli_test(census_loads_kernels_eagerly_in_children 0 "\"module_loading\": \"EAGER\""
                         run --isolate=variant --format json ${fixtures}/testlab.toml --set n=1000 --set measure.census=true ${tp} --force --out ${rb}/census_eager)
set_property(TEST gpu.cli_census_names_the_kernels fake.cli_census_names_the_kernels APPEND PROPERTY ENVIRONMENT
             "CUDALAB_EXPECT_ABSENT=\"module_loading\": \"\"")
cudalab_add_gpu_cli_test(census_without_cupti 0 "\"unavailable\": \"CUPTI cannot be loaded from CUDALAB_CUPTI_LIBRARY: /nonexistent/libcupti.so.13: cannot open"
                         run --format json ${fixtures}/testlab.toml --set n=1000 --set measure.census=true ${tp} --force --out ${rb}/census_none)
set_property(TEST gpu.cli_census_without_cupti fake.cli_census_without_cupti APPEND PROPERTY ENVIRONMENT CUDALAB_CUPTI_LIBRARY=/nonexistent/libcupti.so.13)
if(CUDALAB_CUPTI_INCLUDE_DIR)
  add_test(NAME fake.cli_census_cupti_refuses COMMAND ${cli_dir}/expect_exit.sh 0 "\"unavailable\": \"cuptiActivityEnable\\(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL\\): CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"
           $<TARGET_FILE:cudalab> run --format json ${fixtures}/testlab.toml --set n=1000 --set measure.census=true ${tp} --force --out ${CMAKE_BINARY_DIR}/tests/robust_fake/census_refused)
  set_tests_properties(fake.cli_census_cupti_refuses PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env};FAKECUPTI_REFUSE=1" TIMEOUT 120)
endif()
cudalab_add_gpu_cli_test(memory_refused 3 "needs [0-9.]+ GiB of (device|host) memory but [0-9.]+ GiB is available" run ${fixtures}/testlab.toml --set n=2^34 ${tp} --force --out ${rb}/big)
cudalab_add_gpu_cli_test(memory_refused_isolated 3 "needs [0-9.]+ GiB of (device|host) memory but [0-9.]+ GiB is available" run --isolate ${fixtures}/testlab.toml --set n=2^34 ${tp} --force --out ${rb}/big_isolated)

# A variant that moves nothing at one point (an offset past the end of a short array) is skipped there,
# said so, and the rest runs.
cudalab_add_real_gpu_cli_test(zero_traffic_point_is_skipped 0 "nothing to measure at this point: alignment: traffic_of\\(offset_read, offset=32\\) gives 0 bytes"
                         run ${PROJECT_SOURCE_DIR}/labs/alignment.toml --config ${PROJECT_SOURCE_DIR}/configs/verify.toml --format json
                         --set n=16 --set "sweep.offset=[0,32]" --force --out ${rb}/zero_traffic_point)

# The progress line and the result table on one terminal: no garbled rows, nothing stale left,
# in this process and with --isolate (where the parent draws the line from the children's results).
foreach(mode here isolated devices)
  set(extra "")
  if(mode STREQUAL "isolated")
    set(extra --isolate)
  elseif(mode STREQUAL "devices")
    set(extra --devices 0,0)
  endif()
  add_test(NAME fake.cli_progress_rows_${mode}
           COMMAND ${cli_dir}/progress_rows.sh $<TARGET_FILE:cudalab> "memcpy|copy|scale" ${fixtures}/testlab.toml ${tp}
                   ${extra} --force --out ${CMAKE_BINARY_DIR}/tests/robust_fake/progress_${mode})
  set_tests_properties(fake.cli_progress_rows_${mode} PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}" TIMEOUT 120)
endforeach()

# The table fits $COLUMNS, --wide shows every column.
add_test(NAME fake.cli_console_width COMMAND ${cli_dir}/console_width.sh $<TARGET_FILE:cudalab> ${fixtures}/testlab.toml
         ${CMAKE_BINARY_DIR}/tests/fake_labs ${CMAKE_BINARY_DIR}/tests/robust_fake/console_width)
set_tests_properties(fake.cli_console_width PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}" TIMEOUT 120)
# --device N: GPU N alone, in this process or isolated.
add_test(NAME fake.cli_one_device COMMAND ${cli_dir}/one_device.sh $<TARGET_FILE:cudalab> ${fixtures}
         ${CMAKE_BINARY_DIR}/tests/fake_labs ${CMAKE_BINARY_DIR}/tests/robust_fake/one_device)
set_tests_properties(fake.cli_one_device PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}" TIMEOUT 120)

# The GPUs' clocks and throttling through NVML at the start and end of a run: on the fake runtime and its
# fake NVML (every case, throttled or not, NVML missing), and on a real GPU (both samples recorded).
foreach(kind fake real)
  set(name fake.cli_gpu_state)
  set(work ${CMAKE_BINARY_DIR}/tests/robust_fake/gpu_state)
  if(kind STREQUAL "real")
    set(name gpu.cli_gpu_state)
    set(work ${CMAKE_BINARY_DIR}/tests/robust/gpu_state)
  endif()
  add_test(NAME ${name} COMMAND ${cli_dir}/gpu_state.sh ${kind} $<TARGET_FILE:cudalab> ${fixtures}
           ${CMAKE_BINARY_DIR}/tests/fake_labs ${work})
  set_tests_properties(${name} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 180)
endforeach()
set_tests_properties(fake.cli_gpu_state PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}")

# A repetition lasts min_time_ms of GPU time, not 40 % more.
add_test(NAME fake.cli_repetition_length COMMAND ${cli_dir}/repetition_length.sh $<TARGET_FILE:cudalab> ${fixtures}/testlab.toml
         ${CMAKE_BINARY_DIR}/tests/fake_labs ${CMAKE_BINARY_DIR}/tests/robust_fake/repetition_length)
set_tests_properties(fake.cli_repetition_length PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}" TIMEOUT 120)

# Launch-bound kernels are timed as CUDA graphs, their host-paced time kept; the stopping rule's
# reason and interval are recorded.
add_test(NAME fake.cli_launch_bound COMMAND ${cli_dir}/launch_bound.sh $<TARGET_FILE:cudalab> ${fixtures}/testlab.toml
         ${CMAKE_BINARY_DIR}/tests/fake_labs ${CMAKE_BINARY_DIR}/tests/robust_fake/launch_bound)
set_tests_properties(fake.cli_launch_bound PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}" TIMEOUT 120)

# A sweep over tuning parameters (testlab's block and rounds) sets the point up once and retunes it; a
# data-shaping one (n) sets up a new point each time. testlab's verify note counts its setups.
cudalab_add_gpu_cli_test(sweep_retunes_one_point 0 "points set up in this process: 1\""
                         run --format json ${fixtures}/testlab.toml --set n=1000 --set "sweep.block=[64,128,512]" ${tp} --force --out ${rb}/retune)
foreach(kind gpu fake)
  set_property(TEST ${kind}.cli_sweep_retunes_one_point APPEND PROPERTY ENVIRONMENT "CUDALAB_EXPECT_ABSENT=set up in this process: [02-9]")
endforeach()
cudalab_add_gpu_cli_test(sweep_of_data_sets_up_again 0 "points set up in this process: 3\""
                         run --format json ${fixtures}/testlab.toml --set "sweep.n=[100,200,300]" ${tp} --force --out ${rb}/no_retune)

# Red-team findings (2026-11-23 review) about run's options.
# F27, F28: a --timeout that is not a finite number of seconds above 0 is refused in words (no 300-digit bound).
foreach(value IN ITEMS 0 inf abc 5s -1 nan 1e999)
  string(REPLACE "-" "minus" id "${value}")
  set(finding f27)
  if(value STREQUAL "nan")
    set(finding f28)
  endif()
  cudalab_add_cli_test(redteam_${finding}_timeout_${id} 2 "--timeout: '${value}' is not a number of seconds above 0. write e.g. --timeout 30"
                       run --timeout ${value} ${fixtures}/testlab.toml ${tp})
  set_tests_properties(cli.redteam_${finding}_timeout_${id} PROPERTIES ENVIRONMENT "CUDALAB_EXPECT_ABSENT=[0-9]{20}")
endforeach()
# F34: `--isolate variant` (a space, not '=') is refused, saying to write --isolate=variant.
foreach(mode IN ITEMS variant file none)
  cudalab_add_cli_test(redteam_f34_isolate_${mode}_after_space 2 "--isolate ${mode}: write --isolate=${mode}"
                       run --isolate ${mode} ${fixtures}/testlab.toml ${tp})
endforeach()
