grep -n -E 'listening|model loaded|error|failed|exiting|CUDA error|out of memory|Aborted|address already' /var/log/llama/server.log | tail -30
