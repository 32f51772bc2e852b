grep -n -E 'Listening on|error loading|runner terminated|CUDA error|Killed|address already|panic' /var/log/ollama/ollama.log | tail -30
