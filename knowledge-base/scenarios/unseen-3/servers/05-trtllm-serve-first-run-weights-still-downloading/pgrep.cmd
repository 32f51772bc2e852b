pgrep -fa 'trtllm-serve|mpi4py|prte|python'
