grep -n -E 'Uvicorn running|Traceback|Error|ERROR|out of memory|terminate called|Killed|address already|Shutting down' /var/log/lmdeploy/internvl.log | tail -30
