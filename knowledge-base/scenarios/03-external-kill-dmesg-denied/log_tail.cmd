tail -n 60 /home/ana/vllm-llama8b.log
