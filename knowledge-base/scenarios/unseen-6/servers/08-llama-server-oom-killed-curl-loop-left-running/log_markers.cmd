grep -n -E 'listening|loading model|model loaded|error|failed|terminate|cleaning up|Killed|address already' /home/ana/llama-bench/llama-server.log | tail -30
