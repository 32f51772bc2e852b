systemctl status --no-pager -l vllm-qwen14b.service
