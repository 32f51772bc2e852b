systemctl cat vllm.service
