tail -n 60 /srv/vllm/llama33-70b-tp4.log
