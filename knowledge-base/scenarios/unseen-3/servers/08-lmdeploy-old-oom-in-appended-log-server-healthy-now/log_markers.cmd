grep -n -E 'Uvicorn running|Traceback|Error|ERROR|out of memory|terminate called|Killed|address already|Shutting down' /srv/lmdeploy/qwen32b.log | tail -30
