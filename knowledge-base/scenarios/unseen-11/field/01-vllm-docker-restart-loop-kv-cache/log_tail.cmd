tail -n 60 /srv/llm/logs/llama70b.log
