pgrep -fa 'ollama'
