tail -n 60 /srv/vllm/llama405b-fp8.log
