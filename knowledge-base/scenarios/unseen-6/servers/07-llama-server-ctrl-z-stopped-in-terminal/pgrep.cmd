pgrep -fa 'llama-server|llama'
