grep -n -E 'input backend|HINT|Uvicorn running|Shutting down|Traceback|Error|Killed|address already' /home/llmops/logs/lmdeploy-23333.log | tail -30
