pgrep -fa 'llama-server|llama|python'
