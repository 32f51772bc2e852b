for p in $(pgrep -f 'mpi4py.futures.server|trtllm-serve'); do awk '{print $1, $2, $3, "utime="$14, "stime="$15, "threads="$20}' /proc/$p/stat; done
