grep -n -E 'Args|Shutting down|Starting shard|Shard ready|Connected|crashed|Traceback|Error|Killed|address already' /data/tgi/tgi-3000.log | tail -30
