tail -n 60 /srv/triton/logs/llama3.log
