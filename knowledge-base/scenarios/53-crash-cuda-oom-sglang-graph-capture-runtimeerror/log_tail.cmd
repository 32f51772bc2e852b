tail -n 60 /home/mei/runs/qwen25-32b/server.log
