systemctl status vllm-qwen72b --no-pager -l | head -20
