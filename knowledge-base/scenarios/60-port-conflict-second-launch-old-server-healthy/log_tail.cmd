tail -n 60 /srv/vllm/llama31-8b.log
