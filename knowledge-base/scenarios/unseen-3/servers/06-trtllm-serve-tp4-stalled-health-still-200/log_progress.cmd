grep -n ' iter = ' /srv/trtllm/logs/qwen3-235b.log | tail -3
