grep -n -E 'loading:|successfully loaded|Started|Stub process|unhealthy|Signal|Traceback|Error|Killed|address already' /var/log/triton/server.log | tail -30
