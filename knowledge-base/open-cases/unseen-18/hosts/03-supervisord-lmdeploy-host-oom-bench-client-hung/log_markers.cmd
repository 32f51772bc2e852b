grep -n -E 'Started server process|Uvicorn running|Shutting down|Finished server process|Traceback|Error|ERROR|Killed|address already' /var/log/supervisor/lmdeploy-internlm2.log | tail -30
