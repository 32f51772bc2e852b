pgrep -fa 'llama-server|llama_server|python'
