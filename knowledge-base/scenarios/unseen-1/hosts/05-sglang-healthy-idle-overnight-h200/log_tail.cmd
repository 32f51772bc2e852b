tail -n 60 /var/log/llm/gpt-oss.log
