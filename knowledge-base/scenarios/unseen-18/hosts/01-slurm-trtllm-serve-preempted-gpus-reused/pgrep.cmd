pgrep -fa 'trtllm|tensorrt_llm|mpi4py|python'
