tr '\0' '\n' < /proc/58804/environ | grep -E '^(VLLM|CUDA|NCCL|HF)_'
