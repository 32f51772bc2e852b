kubectl -n vision describe pod qwen-vl-sglang-7b8c6d5f9-hx2mp
