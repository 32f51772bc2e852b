tail -n 60 /srv/llm/vllm-8b.log
