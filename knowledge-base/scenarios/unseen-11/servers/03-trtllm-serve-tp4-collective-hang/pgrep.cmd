pgrep -fa 'trtllm|mpi4py|python'
