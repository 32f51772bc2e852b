pgrep -fa 'llama-server|python'
