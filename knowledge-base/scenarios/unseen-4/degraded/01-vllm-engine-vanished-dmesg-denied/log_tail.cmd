tail -n 60 /srv/llm/logs/vllm-llama33-70b.log
