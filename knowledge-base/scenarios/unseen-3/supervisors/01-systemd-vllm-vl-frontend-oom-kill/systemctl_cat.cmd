systemctl cat vllm-vl.service
