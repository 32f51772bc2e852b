tail -n 60 /srv/vllm/llama70b.log
