systemctl status vllm-llama70b.service --no-pager -l
