set -o pipefail; ps -eo pid,ppid,stat,etimes,rss,args | grep -E 'vllm|sglang|launch_server|text-generation|python|PID' | grep -v grep
