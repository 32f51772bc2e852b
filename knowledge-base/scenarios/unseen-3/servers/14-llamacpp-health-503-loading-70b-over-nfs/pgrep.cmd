pgrep -fa 'llama-server'
