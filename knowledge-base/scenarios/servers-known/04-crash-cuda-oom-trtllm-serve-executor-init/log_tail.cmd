tail -n 60 -- /workspace/trtllm-serve.log
