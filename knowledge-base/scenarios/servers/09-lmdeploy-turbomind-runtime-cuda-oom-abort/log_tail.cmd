tail -n 60 /srv/lmdeploy/qwen2-7b.log
