grep -n -E 'server is listening|exiting due|failed to|error|CUDA error|Killed|address already|cleaning up' /var/log/llama/server.log | tail -30
