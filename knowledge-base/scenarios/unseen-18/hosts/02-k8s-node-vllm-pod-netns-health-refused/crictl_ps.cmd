crictl ps --name vllm
