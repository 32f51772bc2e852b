tail -n 60 /var/log/pods/llm-serving_triton-trtllm-0_b7e2c4a1-93d5-4f08-a6c2-5d1e8f3b7a90/triton/1.log
