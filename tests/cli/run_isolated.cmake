# `cudalab run` in child processes: --isolate, the watchdog, --devices, and the processes of a run under attack.
cudalab_add_gpu_cli_test(isolate_variant_crash 7 "cudaErrorIllegalAddress" run --isolate=variant --format json ${fixtures}/faulty_crash.toml ${fp} --force --out ${rb}/variant_crash)
cudalab_add_gpu_cli_test(timeout_implies_isolate 8 "timed out after 3 s without a result \\(killed by the watchdog\\)" run --timeout 3 --format json ${fixtures}/faulty_hang.toml ${fp} --force --out ${rb}/hang)
cudalab_add_gpu_cli_test(isolate_variant_testlab 0 "\"pct_of_baseline\": 100.0" run --isolate=variant --format json ${fixtures}/testlab.toml ${tp} --force --out ${rb}/variant_good)
add_test(NAME gpu.cli_isolate_faults COMMAND ${cli_dir}/isolate_faults.sh $<TARGET_FILE:cudalab> ${CMAKE_BINARY_DIR}/tests/fake_labs
         ${CMAKE_BINARY_DIR}/tests/fake_labs/faulty ${rb}/isolate_faults)
set_tests_properties(gpu.cli_isolate_faults PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
add_test(NAME fake.cli_isolate_faults COMMAND ${cli_dir}/isolate_faults.sh $<TARGET_FILE:cudalab> ${CMAKE_BINARY_DIR}/tests/fake_labs
         ${CMAKE_BINARY_DIR}/tests/fake_labs/faulty ${CMAKE_BINARY_DIR}/tests/robust_fake/isolate_faults)
set_tests_properties(fake.cli_isolate_faults PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}" TIMEOUT 120)
cudalab_add_gpu_cli_test(profile_isolates 8 "timed out after 4 s" run --config ${fixtures}/isolate_profile.toml --timeout 4 --format json ${fixtures}/faulty_hang.toml ${fp} --force --out ${rb}/profile_hang)

# --devices: one worker per GPU listed (the fake runtime has FAKECUDA_GPUS of them), results in order.
add_test(NAME fake.cli_devices COMMAND ${cli_dir}/devices.sh $<TARGET_FILE:cudalab> ${fixtures} ${CMAKE_BINARY_DIR}/tests/fake_labs
         ${CMAKE_BINARY_DIR}/tests/robust_fake/devices)
set_tests_properties(fake.cli_devices PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}" TIMEOUT 240)
cudalab_add_cli_test(run_devices_bad_list 2 "'0,x' is not a list of GPUs. write CUDA ordinals counted from 0"
                     run --devices 0,x ${fixtures}/testlab.toml ${tp})
cudalab_add_cli_test(run_devices_not_in_process 2 "--devices runs every lab file in a child process on its GPU. it cannot go with --isolate=none"
                     run --devices 0 --isolate=none ${fixtures}/testlab.toml ${tp})

# The processes of a run under attack (the red-team review): signals, a parent that dies, the GPU probe
# under the watchdog, a child's output flood, files and the executable changed during an isolated run.
# Each name is a scenario of process_faults.sh, on the fake CUDA runtime only (it injects the faults).
set(process_scenarios
    redteam_f07_sighup_isolated redteam_f07_sigkill_isolated redteam_f07_sigpipe redteam_f07_terminal_hangup
    redteam_f10_stop_between_samples redteam_f10_second_signal redteam_f11_probe_hangs redteam_f14_output_flood
    redteam_f16_allocation_failure redteam_f18_isolate_two_files redteam_f21_files_edited_during_run
    redteam_f22_binary_replaced redteam_f24_no_descriptor_leak redteam_f33_probe_killed)
foreach(scenario IN LISTS process_scenarios)
  add_test(NAME fake.cli_${scenario} COMMAND ${cli_dir}/process_faults.sh ${scenario} $<TARGET_FILE:cudalab>
           ${CMAKE_BINARY_DIR}/tests/fake_labs ${CMAKE_BINARY_DIR}/tests/robust_fake/${scenario})
  set_tests_properties(fake.cli_${scenario} PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}" TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endforeach()
