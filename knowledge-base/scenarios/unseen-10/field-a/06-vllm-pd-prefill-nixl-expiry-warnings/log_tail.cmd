tail -n 60 /var/log/vllm/prefill-8100.log
