grep -n -E 'Args|Shutting down|Starting shard|Shard ready|Connected|crashed|Traceback|Error|Killed|address already' /srv/tgi/logs/tgi-8080.log | tail -30
