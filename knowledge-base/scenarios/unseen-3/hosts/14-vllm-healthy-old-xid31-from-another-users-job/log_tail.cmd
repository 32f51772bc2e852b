tail -n 60 /srv/llm/logs/mistral-small.log
