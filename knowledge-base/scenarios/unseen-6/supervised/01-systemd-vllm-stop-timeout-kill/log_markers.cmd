grep -n -E 'server_args|non-default args|Shutting down|Starting vLLM API server|startup complete|Traceback|Error|Killed|address already' /var/log/vllm/qwen72b.log | tail -30
