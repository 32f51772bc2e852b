grep -n -E 'Engine 000|shm_broadcast' /var/log/pods/llm_vllm-qwen3-30b-7c9d6b8f4-q2zxk_5e0d1c7a-8b2f-4f7e-9a51-3c6b0d2e9f14/vllm/0.log | tail -25
