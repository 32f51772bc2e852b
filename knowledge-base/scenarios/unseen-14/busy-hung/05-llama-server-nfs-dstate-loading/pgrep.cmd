pgrep -fa 'llama-server|llama_cpp|python'
