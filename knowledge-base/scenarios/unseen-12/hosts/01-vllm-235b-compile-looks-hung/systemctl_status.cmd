systemctl status --no-pager -l vllm-qwen3-235b.service
