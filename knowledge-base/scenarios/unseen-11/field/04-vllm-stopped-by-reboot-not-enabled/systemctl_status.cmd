systemctl status vllm-mistral.service --no-pager
