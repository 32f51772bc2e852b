journalctl -u ollama --since '-2h' --no-pager | grep -E 'error|Error|ERROR|oom|OOM|killed|Killed|terminated|Listening on|Started|Failed' | tail -30
