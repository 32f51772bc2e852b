tail -n 60 /home/svc-llm/logs/vllm-qwen72b.log
