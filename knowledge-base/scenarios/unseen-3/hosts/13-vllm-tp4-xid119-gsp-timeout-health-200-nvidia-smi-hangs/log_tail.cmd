tail -n 60 /home/llm/logs/llama70b-fp8.log
