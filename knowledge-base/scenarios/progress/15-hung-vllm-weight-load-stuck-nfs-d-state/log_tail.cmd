tail -n 60 /var/log/vllm/nemotron.log
