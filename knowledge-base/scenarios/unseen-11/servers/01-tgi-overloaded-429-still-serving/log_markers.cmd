docker logs tgi-llama3 2>&1 | grep -n -E 'Args|Shard ready|Connected|Error|ERROR|panicked|Shutting down|Killed|address already' | tail -30
