tail -n 60 /var/log/pods/llm-serving_qwen3-32b-awq-6f8d9c7b5-m4xtq_3b1e6a0c-8f0d-4e55-9a43-0d7c2a61f2b9/vllm/0.log
