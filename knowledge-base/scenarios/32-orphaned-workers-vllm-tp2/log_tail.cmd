tail -n 60 /srv/vllm/gemma3-27b.log
