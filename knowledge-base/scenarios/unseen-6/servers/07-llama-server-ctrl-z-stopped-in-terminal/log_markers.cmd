grep -n -E 'listening|loading model|model loaded|error|failed|terminate|cleaning up|Killed|address already' /home/kai/logs/llama-8080.log | tail -30
