docker inspect --format '{{json .}}' llm-vllm-llama-1 | python3 -m json.tool | head -120
