ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'trtllm|tensorrt_llm|mpi4py|prte|PID' | grep -v grep
