crictl ps -a --name vllm
