tail -n 60 /data/vllm/embed.log
