tail -n 60 /srv/vllm/qwen3-30b-fp8.log
