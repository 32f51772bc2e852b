tail -n 60 /data/runs/gemma3-27b/server.log
