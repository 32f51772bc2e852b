tail -n 60 /home/ppatel/vllm-qwen3.log
