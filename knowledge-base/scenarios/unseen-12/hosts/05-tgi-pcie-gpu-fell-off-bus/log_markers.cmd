docker logs tgi-llama70b 2>&1 | grep -n -E 'Args|Shard ready|Connected|Shutting down|Traceback|Error|ERROR|panicked|Killed|address already' | tail -30
