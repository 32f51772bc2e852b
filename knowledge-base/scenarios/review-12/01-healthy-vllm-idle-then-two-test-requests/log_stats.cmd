grep -n 'Engine 000: Avg' /var/log/vllm/ocr-vl32b.log | tail -5
