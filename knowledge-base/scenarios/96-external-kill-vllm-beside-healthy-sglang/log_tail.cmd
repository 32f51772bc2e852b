tail -n 60 /srv/vllm/qwen3-32b/server.log
