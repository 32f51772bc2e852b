tail -n 60 /var/log/vllm/ocr-vl32b.log
