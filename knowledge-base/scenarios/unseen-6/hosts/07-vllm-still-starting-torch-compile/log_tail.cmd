tail -n 60 /srv/vllm/logs/dsv31.log
