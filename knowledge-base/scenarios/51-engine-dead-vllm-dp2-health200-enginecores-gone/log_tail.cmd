tail -n 60 /srv/vllm/qwen3-32b-dp2.log
