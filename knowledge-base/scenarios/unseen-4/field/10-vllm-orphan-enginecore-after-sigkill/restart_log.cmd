tail -n 40 /var/log/llm/qwen32b.log
