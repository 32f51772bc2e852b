tail -n 60 /sgl-workspace/logs/llama405b.log
