tail -n 60 /srv/llm/logs/vllm-llama70b.log
