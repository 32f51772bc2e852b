docker logs tgi-mistral-small 2>&1 | grep -n -E 'Shutting down|Traceback|Error|ERROR|Killed|address already|Connected|Webserver' | tail -30
