grep -n -E 'Started HTTPService|failed to load|error:|Signal \(|ERROR|Error|UNAVAILABLE|already in use|Traceback' /srv/triton/logs/llama3.log | tail -30
