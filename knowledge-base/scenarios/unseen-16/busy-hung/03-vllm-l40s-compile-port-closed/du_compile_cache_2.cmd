sleep 10; du -sm /srv/vllm-cache/torch_compile_cache/7c1e4a9b02/rank_*_0
