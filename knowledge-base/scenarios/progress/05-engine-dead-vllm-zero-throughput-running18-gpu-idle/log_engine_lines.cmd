grep 'Engine 000' /var/log/vllm/mistral-small.log | tail -20
