(docker logs --since 2026-11-30T10:04:50Z llm-vllm-llama-1 2>&1 | head -n 60; echo '----- tail -----'; docker logs --tail 60 llm-vllm-llama-1 2>&1)
