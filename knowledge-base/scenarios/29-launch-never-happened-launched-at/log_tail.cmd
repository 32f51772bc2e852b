tail -n 60 /home/ivan/serve/vllm.log
