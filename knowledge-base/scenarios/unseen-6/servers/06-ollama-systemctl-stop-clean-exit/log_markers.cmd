journalctl -u ollama --no-pager --since '-8h' | grep -E 'Listening on|starting llama server|runner started|terminated|error|panic|Stopping|Stopped|Deactivated|Failed' | tail -30
