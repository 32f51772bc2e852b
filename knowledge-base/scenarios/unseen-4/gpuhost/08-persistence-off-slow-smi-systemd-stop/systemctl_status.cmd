systemctl status vllm-llama70b --no-pager
