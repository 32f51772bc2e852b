docker logs -t trtllm-llama31 2>&1 | grep -E 'Started|successfully loaded|failed to load|Error|ERROR|error|Killed|Xid|terminat' | tail -30
