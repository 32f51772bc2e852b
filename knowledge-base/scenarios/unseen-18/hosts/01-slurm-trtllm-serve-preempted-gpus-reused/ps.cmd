ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'trtllm|tensorrt_llm|mpi4py|python|PID' | grep -v grep
