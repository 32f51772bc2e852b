pgrep -fa 'ollama|llama-server|python'
