tail -n 60 /data/logs/sglang-glm45air.log
