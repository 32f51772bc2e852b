grep -n -E 'Uvicorn running|Application startup complete|Traceback|Error|ERROR|\[E\]|Killed|address already|Shutting down' /srv/trtllm/logs/llama70b.log | tail -30
