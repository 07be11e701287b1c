# run --profile on the fake runtime with a fake ncu: counters in every output, ncu's command
# line, and without ncu, without counter permission or with an ncu that fails, a run without counters;
# on a GPU with the real ncu: the counters of each variant's own kernels, as the model predicts them.
add_test(NAME fake.cli_profile COMMAND ${cli_dir}/profile.sh fake $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR}/tests/fixtures
         ${CMAKE_BINARY_DIR}/tests/fake_labs ${CMAKE_BINARY_DIR}/tests/fake_labs/faulty
         ${CMAKE_BINARY_DIR}/tests/robust_fake/profile)
set_tests_properties(fake.cli_profile PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}" TIMEOUT 120)
add_test(NAME gpu.cli_profile COMMAND ${cli_dir}/profile.sh real $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR}/tests/fixtures
         ${CMAKE_BINARY_DIR}/tests/fake_labs ${CMAKE_BINARY_DIR}/tests/fake_labs/faulty
         ${CMAKE_BINARY_DIR}/tests/robust/profile)
# ncu cannot prepare a kernel for profiling while other processes use the GPU: alone.
set_tests_properties(gpu.cli_profile PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300 RUN_SERIAL TRUE)
