tail -n 60 /var/log/pods/llm_tgi-llama-8b-6c9f7d8b5-x2kqp_3f0b6c2e-9a41-4d5e-b7a2-1c8e2d0f5a93/tgi/46.log
