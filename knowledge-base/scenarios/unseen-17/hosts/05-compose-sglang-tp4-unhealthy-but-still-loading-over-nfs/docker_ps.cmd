docker ps -a --filter name=sglang
