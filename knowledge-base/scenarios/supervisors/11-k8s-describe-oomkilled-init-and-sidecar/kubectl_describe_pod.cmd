kubectl describe pod -n llm vllm-llama70b-6f8d9c7b54-q2wzn
