# Course assignments (`cudalab assignment`, `check`, `grade`): every example assignment through validate, init,
# starter and check --no-gpu; malformed assignment files located with did-you-mean; broken submissions refused with
# the student's file and line; run --submission's own mistakes. On a GPU: check of the reference, the
# starter and faulty submissions.
set(assignments alignment-vector-copy reduction-sum transpose-tile aos-to-soa mapped-overlap)
set(af ${PROJECT_SOURCE_DIR}/tests/fixtures/assignments)
set(subs ${PROJECT_SOURCE_DIR}/tests/fixtures/submissions)
set(aw ${CMAKE_BINARY_DIR}/tests/assignments)
foreach(a IN LISTS assignments)
  add_test(NAME cli.assignment_flow_${a} COMMAND ${cli_dir}/assignment_flow.sh $<TARGET_FILE:cudalab>
           ${PROJECT_SOURCE_DIR}/labs/assignments/${a}/assignment.toml ${PROJECT_SOURCE_DIR} ${aw}/${a})
  set_tests_properties(cli.assignment_flow_${a} PROPERTIES LABELS cli TIMEOUT 300)
endforeach()
# `grade` without a GPU: no secret, a compile error and a denied header graded with every
# render, a class batch with its gradebook and resume, no GPU for a submission that builds.
# Tests that grade an assignment with sanitizer tests find compute-sanitizer's stand-in (tests/CMakeLists.txt).
add_test(NAME cli.grade_flow COMMAND ${cli_dir}/grade_flow.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR}
         ${aw}/grade_flow)
set_tests_properties(cli.grade_flow PROPERTIES LABELS cli TIMEOUT 300
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
# The review of 2026-11-26 (shared/reviews/2026-11-26-redteam.md): each test carries the numbers of the findings
# it proves (docs/grading.md's table lists them all).
# A class batch's integrity: forged and stale reports graded again (F4, F19), the output the staff's alone
# (F8), renders and temporary files no obstacle to a resume (F14), two hand-ins of one student and one named
# like a class file left out (F15, F16), one batch in a folder at a time (F17).
add_test(NAME cli.redteam26_f04_f08_f14_f15_f16_f17_f19_a_batch_keeps_only_signed_reports
         COMMAND ${cli_dir}/grade_batch_integrity.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_batch_integrity)
set_tests_properties(cli.redteam26_f04_f08_f14_f15_f16_f17_f19_a_batch_keeps_only_signed_reports PROPERTIES
                     LABELS cli TIMEOUT 300 SKIP_RETURN_CODE 77 ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
# grade's trust boundary: hostile submissions on the fake runtime reach no secret, classmate or reference (F1,
# F3, F13, F23), no terminal (F2), leave no process (F5).
add_test(NAME fake.cli_redteam26_f01_f02_f03_f05_f13_f23_hostile_submissions_get_nothing
         COMMAND ${cli_dir}/grade_hostile.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_hostile)
set_tests_properties(fake.cli_redteam26_f01_f02_f03_f05_f13_f23_hostile_submissions_get_nothing PROPERTIES
                     LABELS "fake;cli" TIMEOUT 600 SKIP_RETURN_CODE 77 ENVIRONMENT "${fake_gpu_env}"
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
# F10: a hidden test's sizes reach no file a student reads, through a flag or a message.
add_test(NAME fake.cli_redteam26_f10_no_hidden_size_reaches_the_student
         COMMAND ${cli_dir}/grade_hidden_inputs.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_hidden_inputs)
set_tests_properties(fake.cli_redteam26_f10_no_hidden_size_reaches_the_student PROPERTIES LABELS "fake;cli"
                     TIMEOUT 300 SKIP_RETURN_CODE 77 ENVIRONMENT "${fake_gpu_env}"
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
# F14: a batch run again with other --emit options, or killed at any point and run again, grades everyone once.
add_test(NAME fake.cli_redteam26_f14_a_batch_rerun_or_killed_grades_everyone_once
         COMMAND ${cli_dir}/grade_batch_rerun.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_batch_rerun)
set_tests_properties(fake.cli_redteam26_f14_a_batch_rerun_or_killed_grades_everyone_once PROPERTIES
                     LABELS "fake;cli" TIMEOUT 600 SKIP_RETURN_CODE 77 ENVIRONMENT "${fake_gpu_env}"
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
# F18: max_bytes holds in a class batch.
add_test(NAME cli.redteam26_f18_max_bytes_holds_in_a_batch
         COMMAND ${cli_dir}/grade_max_bytes.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_max_bytes)
set_tests_properties(cli.redteam26_f18_max_bytes_holds_in_a_batch PROPERTIES LABELS cli TIMEOUT 300 SKIP_RETURN_CODE 77)
# F20: no compute-sanitizer: grade stops before grading anything (exit 5).
add_test(NAME cli.redteam26_f20_no_compute_sanitizer_stops_grade
         COMMAND ${cli_dir}/grade_no_sanitizer.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_no_sanitizer)
set_tests_properties(cli.redteam26_f20_no_compute_sanitizer_stops_grade PROPERTIES LABELS cli TIMEOUT 120
                     SKIP_RETURN_CODE 77)
# F29: escape sequences in a student's build reach the console and feedback.md escaped.
add_test(NAME cli.redteam26_f29_escape_sequences_are_shown_not_obeyed
         COMMAND ${cli_dir}/escape_sequences.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/escape_sequences)
set_tests_properties(cli.redteam26_f29_escape_sequences_are_shown_not_obeyed PROPERTIES LABELS cli TIMEOUT 120)
# F30: hand-ins left out are counted and listed, escaped; the batch exits 12; ids like 00123 stay text.
add_test(NAME cli.redteam26_f30_names_left_out_are_counted
         COMMAND ${cli_dir}/grade_left_out.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_left_out)
set_tests_properties(cli.redteam26_f30_names_left_out_are_counted PROPERTIES LABELS cli TIMEOUT 300 SKIP_RETURN_CODE 77
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
# grade's own, sandboxed builds (issue 31): honest kernels that include what the assignment does not deny -
# cooperative groups, built on the libcu++ that transpose-tile denies - build; a denied header named through a
# macro is refused there too.
add_test(NAME cli.grade_builds_honest_kernel
         COMMAND ${cli_dir}/grade_builds.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_builds_kernel
                 ${PROJECT_SOURCE_DIR}/labs/assignments/transpose-tile/assignment.toml ok ${subs}/transpose/std_headers.cu)
add_test(NAME cli.redteam26_f23_grade_builds_deny_a_macro_include
         COMMAND ${cli_dir}/grade_builds.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_builds_macro
                 ${PROJECT_SOURCE_DIR}/labs/assignments/alignment-vector-copy/assignment.toml denied
                 ${subs}/alignment/denied_by_macro.cu)
set_tests_properties(cli.grade_builds_honest_kernel cli.redteam26_f23_grade_builds_deny_a_macro_include PROPERTIES
                     LABELS cli TIMEOUT 300 SKIP_RETURN_CODE 77 ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
# Honest reduce_sum fixtures (issue 31), each written to earn every correctness point: they build (here, each
# through check --no-gpu, and the one with cooperative groups in grade's sandbox too: reduction-sum denies the
# library reductions and libcu++, not cooperative groups), and on a GPU gpu.cli_grade_honest grades each.
set(honest_reductions one_pass_atomics last_block cooperative_groups odd_blocks launch_kernel inline_ptx several_passes)
set(honest_reduction_files)
foreach(h IN LISTS honest_reductions)
  cudalab_add_cli_test(check_honest_${h}_builds 0 "build: ok"
                       check ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml --no-gpu
                       --submission ${subs}/reduction/honest_${h}.cu --out ${aw}/honest_${h} --force)
  list(APPEND honest_reduction_files ${subs}/reduction/honest_${h}.cu)
endforeach()
add_test(NAME cli.grade_builds_honest_launcher
         COMMAND ${cli_dir}/grade_builds.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_builds_launcher
                 ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml ok
                 ${subs}/reduction/honest_cooperative_groups.cu)
set_tests_properties(cli.grade_builds_honest_launcher PROPERTIES LABELS cli TIMEOUT 300 SKIP_RETURN_CODE 77
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
add_test(NAME gpu.cli_grade_honest
         COMMAND ${cli_dir}/grade_fixtures.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_honest
                 ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml honest ${honest_reduction_files})
set_tests_properties(gpu.cli_grade_honest PROPERTIES LABELS "gpu;grade" SKIP_RETURN_CODE 77 TIMEOUT 1200)
# Cheating fixtures (issue 31), each caught by the check its file names on its "// caught by:" line: they build
# here (check --no-gpu), and on a GPU gpu.cli_grade_cheats grades each and looks for that check in grade.json.
set(reduction_cheats returns_zero returns_input known_seed reads_freed_reference deferred_thread cache_result own_stream
    patched_timing census_off)
set(caught_reduction_files)
foreach(c IN LISTS reduction_cheats)
  cudalab_add_cli_test(check_cheat_${c}_builds 0 "build: ok"
                       check ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml --no-gpu
                       --submission ${subs}/reduction/${c}.cu --out ${aw}/cheat_${c} --force)
  if(NOT c STREQUAL "patched_timing" AND NOT c STREQUAL "census_off")
    list(APPEND caught_reduction_files ${subs}/reduction/${c}.cu)
  endif()
endforeach()
cudalab_add_cli_test(check_cheat_forged_results_builds 0 "build: ok"
                     check ${PROJECT_SOURCE_DIR}/labs/assignments/mapped-overlap/assignment.toml --no-gpu
                     --submission ${subs}/mapped_pinned/forged_results.cu --out ${aw}/cheat_forged --force)
add_test(NAME gpu.cli_grade_cheats
         COMMAND ${cli_dir}/grade_fixtures.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_cheats
                 ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml caught ${caught_reduction_files})
set_tests_properties(gpu.cli_grade_cheats PROPERTIES LABELS "gpu;grade" SKIP_RETURN_CODE 77 TIMEOUT 1500)
# The cheats a launcher plays on the process it runs in (tests/cli/grade_process_cheats.sh): forged results caught and
# patched timing neutralised by the two-process harness; the census switched off around a vendor library caught by
# the sandbox, which hides the library (fake.cli_grade_vendor_libraries_hidden shows that part in CI). On the fake runtime a real lab's verification passes whatever the kernels did
# (its compare kernels do not run there), so forged results are not graded in CI: fake.submission_process shows
# there what catches them - the launcher's descriptor 3 is its socket, and an answer on it is refused.
foreach(entry forged_caught:forged:mapped-overlap:mapped_pinned/forged_results
              census_caught:census:reduction-sum:reduction/census_off
              patched_neutralised:patched:reduction-sum:reduction/patched_timing)
  string(REPLACE ":" ";" parts ${entry})
  list(GET parts 0 test)
  list(GET parts 1 case)
  list(GET parts 2 id)
  list(GET parts 3 fixture)
  add_test(NAME gpu.cli_grade_${test}
           COMMAND ${cli_dir}/grade_process_cheats.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR}
                   ${aw}/process_cheat_${case} ${PROJECT_SOURCE_DIR}/labs/assignments/${id}/assignment.toml ${case}
                   ${subs}/${fixture}.cu)
  set_tests_properties(gpu.cli_grade_${test} PROPERTIES LABELS "gpu;grade" SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()
# grade runs a launcher in the submission's own process, check in its test's child (tests/cli/launchers_apart.sh).
add_test(NAME fake.cli_grade_runs_launchers_apart
         COMMAND ${cli_dir}/launchers_apart.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/launchers_apart)
set_tests_properties(fake.cli_grade_runs_launchers_apart PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}"
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}" TIMEOUT 300)
# The harness's timing of a launcher in its own process: the same time per launch as check's in-process one, with a
# cost for each switch between the processes (tests/cli/launchers_apart_timing.sh).
add_test(NAME fake.cli_grade_times_launchers_apart_as_check
         COMMAND ${cli_dir}/launchers_apart_timing.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/launchers_apart_timing)
set_tests_properties(fake.cli_grade_times_launchers_apart_as_check PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}"
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}" TIMEOUT 300)
# Persisting-L2 state a launcher leaves in its own process, found there and flagged (tests/cli/launcher_persisting.sh).
add_test(NAME fake.cli_grade_launcher_persisting_l2_flagged
         COMMAND ${cli_dir}/launcher_persisting.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/launcher_persisting)
set_tests_properties(fake.cli_grade_launcher_persisting_l2_flagged PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}"
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}" TIMEOUT 300)
# The toolkit's vendor libraries hidden from a graded run's sandbox (slots/vendor_libraries.hpp): loads_cublas.cu's
# dlopen works with --no-sandbox and fails in the sandbox.
add_test(NAME fake.cli_grade_vendor_libraries_hidden
         COMMAND ${cli_dir}/grade_vendor_hidden.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/vendor_hidden)
set_tests_properties(fake.cli_grade_vendor_libraries_hidden PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}"
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}" TIMEOUT 300 SKIP_RETURN_CODE 77)
# A class on two fake GPUs (issue 32): a worker per GPU, each grade.json naming its GPU, the gradebook's
# gpu and status columns, resume without regrading, a cut-short report graded again, --merge's
# "not graded" row and exit 12, a GPU that is not there refused.
add_test(NAME fake.cli_grade_devices COMMAND ${cli_dir}/grade_devices.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR}
         ${aw}/grade_devices)
set_tests_properties(fake.cli_grade_devices PROPERTIES LABELS "fake;cli" ENVIRONMENT "${fake_gpu_env}" TIMEOUT 600
                     ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
# Fair timing and the watchdog (issue 31): the cheats of grading-attacks' families each against the check that
# stops it, on the fake runtime (docs/grading.md, "Cheats and what stops them"). The kept-alive watchdog is a grade;
# the others are runs of test lab files with the settings a graded performance test has.
add_test(NAME fake.cli_grade_cheat_kept_alive_watchdog
         COMMAND ${cli_dir}/grade_kept_alive.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_kept_alive)
set_tests_properties(fake.cli_grade_cheat_kept_alive_watchdog PROPERTIES LABELS "fake;cli" TIMEOUT 300
                     ENVIRONMENT "${fake_gpu_env}" ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
foreach(family work_only_when_checked changed_device_state slowed_baseline)
  add_test(NAME fake.cli_grade_cheat_${family}
           COMMAND ${cli_dir}/fair_timing.sh ${family} $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR}
                   ${CMAKE_BINARY_DIR}/tests/fake_labs/faulty ${aw}/cheat_${family})
  set_tests_properties(fake.cli_grade_cheat_${family} PROPERTIES LABELS "fake;cli" TIMEOUT 300
                       ENVIRONMENT "${fake_gpu_env}" ENVIRONMENT_MODIFICATION "${CUDALAB_FAKE_SANITIZER_PATH}")
endforeach()
# The same families graded on a GPU (exit 77 without one): the reference, then each cheat's fixture, each with the
# outcome its header comment states.
add_test(NAME gpu.cli_grade_cheats_timing COMMAND ${cli_dir}/grade_cheats_gpu.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR}
         ${aw}/grade_cheats_gpu)
set_tests_properties(gpu.cli_grade_cheats_timing PROPERTIES LABELS "gpu;grade" SKIP_RETURN_CODE 77 TIMEOUT 1200)
# Red-team review 2026-11-26 F22: a GPU listed twice would get two workers timing on it at once.
cudalab_add_cli_test(redteam26_f22_a_gpu_listed_twice_is_refused 2 "--devices 0,0: GPU 0 is listed twice"
                     grade ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml --submissions
                     ${PROJECT_SOURCE_DIR}/tests/fixtures/submissions/reduction --devices 0,0 --out ${CMAKE_BINARY_DIR}/tests/f22)
set(alignment_assignment ${PROJECT_SOURCE_DIR}/labs/assignments/alignment-vector-copy/assignment.toml)
cudalab_add_cli_test(assignment_validate_good 0 "good.toml: ok — assignment fixture, slot 'vector_copy' of lab alignment, 1 test"
                     validate ${af}/good.toml)
cudalab_add_cli_test(assignment_unknown_key 3 "unknown_key.toml:4:1: unknown key 'tittle' in assignment. did you mean 'title'\\?"
                     validate ${af}/unknown_key.toml)
cudalab_add_cli_test(assignment_bad_kind 3 "bad_kind.toml:11:8: test.kind is \"corectness\", not one of correctness, performance, sanitizer. did you mean \"correctness\"\\?"
                     validate ${af}/bad_kind.toml)
cudalab_add_cli_test(assignment_points_mismatch 3 "the tests' points add up to 7, not assignment.points = 10"
                     validate ${af}/points_mismatch.toml)
cudalab_add_cli_test(assignment_unknown_slot 3 "unknown_slot.toml:6:8: lab 'alignment' has no slot 'vector_cpy'. did you mean 'vector_copy'\\?"
                     validate ${af}/unknown_slot.toml)
cudalab_add_cli_test(assignment_unknown_param 3 "unknown_param.toml:9:1: test 'sizes': unknown parameter 'blok'.*did you mean 'block'\\?"
                     validate ${af}/unknown_param.toml)
cudalab_add_cli_test(assignment_out_of_range 3 "out_of_range.toml:9:1: test 'sizes': .*0.*range" validate ${af}/out_of_range.toml)
cudalab_add_cli_test(assignment_requires_unknown 3 "test 'speed' requires 'size', which is no test. did you mean 'sizes'\\?"
                     validate ${af}/requires_unknown.toml)
cudalab_add_cli_test(assignment_zero_above_full 3 "test 'speed': zero_at \\(50\\) must be below full_at \\(40\\)"
                     validate ${af}/requires_unknown.toml)
cudalab_add_cli_test(assignment_validate_memcheck_pages 0 "reduction_memcheck_pages.toml: ok"
                     validate ${af}/reduction_memcheck_pages.toml)
cudalab_add_cli_test(assignment_no_tests 3 "no \\[\\[test\\]\\]: an assignment needs at least one test" validate ${af}/no_tests.toml)
cudalab_add_cli_test(assignment_missing_lab 3 "missing_lab.toml:5:7: assignment.lab 'no_such_lab.toml' cannot be used"
                     validate ${af}/missing_lab.toml)
cudalab_add_cli_test(assignment_key_of_other_kind 3 "test.tool is for sanitizer tests, and 'sizes' is a correctness test"
                     validate ${af}/wrong_table_key.toml)
cudalab_add_cli_test(assignment_init_unknown_slot 2 "lab 'alignment' has no slot 'nope' \\(its slots: vector_copy\\)"
                     assignment init --lab ${PROJECT_SOURCE_DIR}/labs/alignment.toml --slot nope --out ${aw}/init_nope)
cudalab_add_cli_test(assignment_starter_refuses_full_folder 2 "is there already and is not an empty folder"
                     assignment starter ${alignment_assignment} --out ${PROJECT_SOURCE_DIR}/labs)
# Diagnostics name the file the student gave (issue 34), not the assignment's file name.
cudalab_add_cli_test(check_compile_error 10 "compile_error.cu:5: error: identifier \"j\" is undefined"
                     check ${alignment_assignment} --no-gpu --submission ${subs}/alignment/compile_error.cu --out ${aw}/ce --force)
cudalab_add_cli_test(check_denied_header 10 "denied_header.cu:2: denied: #include <cub/cub.cuh>"
                     check ${alignment_assignment} --no-gpu --submission ${subs}/alignment/denied_header.cu --out ${aw}/dh --force)
# Red-team review 2026-11-26 F23: the header policy is judged on the headers the compiler opened - a denied one
# named through a macro is refused; one inside #if 0 is no include.
cudalab_add_cli_test(redteam26_f23_a_header_named_by_a_macro_is_denied 10 "denied_by_macro.cu: denied: it includes .*cub/cub.cuh .*which matches cub/\\*"
                     check ${alignment_assignment} --no-gpu --submission ${subs}/alignment/denied_by_macro.cu --out ${aw}/dm --force)
cudalab_add_cli_test(check_skipped_include_is_no_include 0 "build: ok"
                     check ${alignment_assignment} --no-gpu --submission ${subs}/alignment/skipped_include.cu --out ${aw}/si --force)
cudalab_add_cli_test(check_wrong_entry 10 "it defines no function 'vector_copy'"
                     check ${alignment_assignment} --no-gpu --submission ${subs}/alignment/wrong_name.cu --out ${aw}/wn --force)
# Honest kernels include the standard's integers, cooperative groups and half precision (issue: NVRTC was
# given no include path).
cudalab_add_cli_test(check_kernel_with_standard_headers 0 "build: ok"
                     check ${PROJECT_SOURCE_DIR}/labs/assignments/transpose-tile/assignment.toml --no-gpu
                     --submission ${subs}/transpose/std_headers.cu --out ${aw}/stdh --force)
# "Too much shared data" (ptxas, through NVRTC and through nvcc) reaches the student at the kernel's line, its
# name demangled, in bytes (issue 31: it was NVRTC_ERROR_COMPILATION, or "nvcc failed").
cudalab_add_cli_test(check_too_much_shared_kernel 10
                     "too_much_shared.cu:6: error: kernel 'transpose_tile' declares 69632 bytes \\(68 KiB\\) of __shared__ data"
                     check ${PROJECT_SOURCE_DIR}/labs/assignments/transpose-tile/assignment.toml --no-gpu
                     --submission ${subs}/transpose/too_much_shared.cu --out ${aw}/tms_kernel --force)
cudalab_add_cli_test(check_too_much_shared_launcher 10
                     "too_much_shared.cu:12: error: kernel 'block_sums' declares 69632 bytes \\(68 KiB\\) of __shared__ data"
                     check ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml --no-gpu
                     --submission ${subs}/reduction/too_much_shared.cu --out ${aw}/tms_launcher --force)
# Red-team review 2026-11-26 F26: #include "/dev/zero" in a launcher ends under the build's memory limit.
cudalab_add_cli_test(redteam26_f26_an_endless_include_ends 10 "build: FAILED"
                     check ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml --no-gpu
                     --submission ${subs}/reduction/include_dev_zero.cu --out ${aw}/devzero --force)
set_tests_properties(cli.redteam26_f26_an_endless_include_ends PROPERTIES TIMEOUT 120)
cudalab_add_cli_test(check_missing_submission 2 "no submission file" check ${alignment_assignment} --no-gpu
                     --submission ${subs}/alignment/none.cu --out ${aw}/none --force)
cudalab_add_cli_test(check_too_large 10 "has [0-9]+ bytes, more than the assignment's max_bytes \\(100\\)" check ${af}/tiny_limit.toml
                     --no-gpu --submission ${PROJECT_SOURCE_DIR}/plugins/alignment/slots/vector_copy.cu --out ${aw}/big --force)
cudalab_add_cli_test(run_submission_not_slot_file 2 "--submission 'vector_copy' is not SLOT=FILE"
                     run ${PROJECT_SOURCE_DIR}/labs/alignment.toml --submission vector_copy)
cudalab_add_cli_test(run_submission_unknown_slot 3 "no lab of these lab files has a slot 'vector_cpy'. did you mean 'vector_copy'\\?"
                     run ${PROJECT_SOURCE_DIR}/labs/alignment.toml --submission vector_cpy=${subs}/alignment/oob_write.cu)
cudalab_add_cli_test(run_student_variant_needs_submission 3 "variant 'student:vector_copy' runs a submission for slot 'vector_copy': give it with --submission vector_copy=FILE"
                     run ${PROJECT_SOURCE_DIR}/labs/alignment.toml --set lab.variants=student:vector_copy)
# Each example's compile error is named at the student's line (NVRTC for kernel slots, nvcc for launchers),
# in the file the student gave (compile_error.cu), not the assignment's file name (issue 34).
foreach(entry reduction:reduction-sum:57 transpose:transpose-tile:21 aos_soa:aos-to-soa:23 mapped_pinned:mapped-overlap:43)
  string(REPLACE ":" ";" parts ${entry})
  list(GET parts 0 lab)
  list(GET parts 1 id)
  list(GET parts 2 line)
  cudalab_add_cli_test(check_compile_error_${lab} 10 "compile_error.cu:${line}: error: identifier \"undeclared_name\" is undefined"
                       check ${PROJECT_SOURCE_DIR}/labs/assignments/${id}/assignment.toml --no-gpu
                       --submission ${subs}/${lab}/compile_error.cu --out ${aw}/ce_${lab} --force)
endforeach()
# With a GPU: the reference earns every visible point; the starter fails its tests cleanly; an endless
# kernel is stopped at the unit timeout; a stray store is found by memcheck.
# (Performance points depend on the machine and what else runs: the tests look at correctness only.)
cudalab_add_real_gpu_cli_test(check_reference 0 "every-block +correctness +10/10 +4 of 4 points verified"
                              check ${alignment_assignment} --submission ${PROJECT_SOURCE_DIR}/plugins/alignment/slots/vector_copy.cu --out ${aw}/gpu_ref --force)
cudalab_add_real_gpu_cli_test(check_endless_kernel 6 "timed out after 20 s"
                              check ${alignment_assignment} --submission ${subs}/alignment/endless.cu --out ${aw}/gpu_endless --force)
cudalab_add_real_gpu_cli_test(check_stray_store 6 "memcheck found errors"
                              check ${alignment_assignment} --submission ${subs}/alignment/oob_write.cu --out ${aw}/gpu_oob --force)
cudalab_add_real_gpu_cli_test(check_reference_launcher 0 "large +correctness +10/10 +1 of 1 points verified"
                              check ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml
                              --submission ${PROJECT_SOURCE_DIR}/plugins/reduction/slots/reduce_sum.cu --out ${aw}/gpu_ref_reduction --force)
cudalab_add_real_gpu_cli_test(check_endless_launcher 6 "timed out after 20 s"
                              check ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml
                              --submission ${subs}/reduction/endless.cu --out ${aw}/gpu_endless_reduction --force)
# A read exactly one element past the input's end (the sum stays right) fails memcheck: at the assignment's
# sizes, and where the input fills whole allocator pages, whose neighbour may start right behind it - there
# only memcheck's padding makes the read an error (issue 31: such reads passed with full marks).
cudalab_add_real_gpu_cli_test(check_read_past_end 6 "memcheck found errors"
                              check ${PROJECT_SOURCE_DIR}/labs/assignments/reduction-sum/assignment.toml
                              --submission ${subs}/reduction/read_past_end.cu --out ${aw}/gpu_read_past_end --force)
cudalab_add_real_gpu_cli_test(check_read_past_end_of_whole_pages 6 "memcheck found errors"
                              check ${af}/reduction_memcheck_pages.toml
                              --submission ${subs}/reduction/read_past_end.cu --out ${aw}/gpu_read_past_pages --force)
# `grade` on a GPU: the reference, a compute-once cheat, a submission tuned to the visible
# sizes graded three times (hidden draws per student), an endless kernel at one size.
add_test(NAME gpu.cli_grade COMMAND ${cli_dir}/grade_gpu.sh $<TARGET_FILE:cudalab> ${PROJECT_SOURCE_DIR} ${aw}/grade_gpu)
set_tests_properties(gpu.cli_grade PROPERTIES LABELS "gpu;grade" SKIP_RETURN_CODE 77 TIMEOUT 600)
set_tests_properties(gpu.cli_check_reference gpu.cli_check_endless_kernel gpu.cli_check_stray_store
                     gpu.cli_check_reference_launcher gpu.cli_check_endless_launcher gpu.cli_check_read_past_end
                     gpu.cli_check_read_past_end_of_whole_pages PROPERTIES TIMEOUT 600)
