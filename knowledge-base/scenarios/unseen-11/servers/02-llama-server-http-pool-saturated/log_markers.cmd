grep -n -E 'listening|model loaded|error|failed|cleaning up|terminat' /var/log/llama/server.log | tail -30
