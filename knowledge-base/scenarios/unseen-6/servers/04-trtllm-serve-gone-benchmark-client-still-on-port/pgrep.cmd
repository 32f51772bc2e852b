pgrep -fa 'trtllm-serve|tensorrt_llm|mpi4py|prte'
