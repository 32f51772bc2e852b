tail -n 60 /opt/llm/logs/llama8b-128k.log
