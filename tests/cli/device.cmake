# `cudalab device`: the GPUs, or why there is none.
cudalab_add_cli_test(device_without_gpu 5 "no usable GPU" device)
set_tests_properties(cli.device_without_gpu PROPERTIES ENVIRONMENT CUDALAB_SKIP_IF_GPU=1)
cudalab_add_cli_test(device_device_not_a_number 2 "--device: 'gpu1' is not a GPU" device --device gpu1)
