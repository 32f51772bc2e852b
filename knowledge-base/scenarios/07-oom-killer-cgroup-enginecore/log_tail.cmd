tail -n 60 /var/lib/docker/containers/7c1e04b2d98f/vllm-vl.log
