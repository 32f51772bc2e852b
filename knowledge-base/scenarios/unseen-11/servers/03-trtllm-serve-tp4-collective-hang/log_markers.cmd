grep -n -E 'Started server process|Uvicorn running|Application startup|Traceback|Error|ERROR|Shutting down|Killed|address already|MPI_Abort' /var/log/trtllm/serve.log | tail -30
