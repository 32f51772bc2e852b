tail -n 60 /srv/llama/logs/qwen-coder.log
