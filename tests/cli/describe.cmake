# `cudalab describe LAB`: a lab's parameters, variants and slots.
cudalab_add_cli_test(describe_testlab 0 "memcpy.*\\(baseline\\)" describe testlab ${tp})
cudalab_add_cli_test(describe_shows_ranges 0 "block +integer +default 256" describe testlab ${tp})
cudalab_add_cli_test(describe_missing_plugin 4 "no plugin 'nope'" describe nope ${tp})
cudalab_add_cli_test(describe_lists_slots 0 "vector_copy +kernel +copy_float4" describe alignment)
