docker logs --tail 25 --timestamps vllm-phi4
