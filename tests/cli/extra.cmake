# The bench gate tests drive the bench runner with cases of their own.
target_link_libraries(${target} PRIVATE tenferro_cli_bench)
