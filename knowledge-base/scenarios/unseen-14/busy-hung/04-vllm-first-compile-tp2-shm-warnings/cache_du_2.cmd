du -sk /home/mlops/.cache/vllm/torch_compile_cache/3f1d7b9a6c/rank_0_0 /home/mlops/.cache/vllm/torch_compile_cache/3f1d7b9a6c/rank_1_0
