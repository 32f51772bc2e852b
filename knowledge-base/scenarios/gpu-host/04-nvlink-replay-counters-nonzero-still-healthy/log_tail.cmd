tail -n 60 /srv/sglang/logs/glm.log
