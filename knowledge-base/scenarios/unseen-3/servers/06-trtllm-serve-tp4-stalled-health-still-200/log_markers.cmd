grep -n -E 'Uvicorn running|Traceback|Error|ERROR|\[E\]|Killed|address already|Shutting down' /srv/trtllm/logs/qwen3-235b.log | tail -30
