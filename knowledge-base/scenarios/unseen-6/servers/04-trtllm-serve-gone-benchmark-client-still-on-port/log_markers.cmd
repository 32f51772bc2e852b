grep -n -E 'Uvicorn running|Shutting down|Finished server process|Traceback|Error|Killed|address already|\[E\]|\[W\]' /var/log/trtllm/serve-8000.log | tail -30
