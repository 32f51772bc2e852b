tail -n 60 /var/log/pods/inference_vllm-qwen72b-7c9d6f5b8-k4x2p_4e6f2b1a-9c3d-4d7e-8a15-2b0c6f9e7d31/vllm/7.log
