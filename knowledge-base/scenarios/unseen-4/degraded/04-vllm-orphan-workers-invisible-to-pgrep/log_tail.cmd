tail -n 60 /opt/llm/logs/qwen3-32b.log
