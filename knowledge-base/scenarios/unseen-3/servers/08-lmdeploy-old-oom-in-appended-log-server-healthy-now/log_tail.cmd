tail -n 60 /srv/lmdeploy/qwen32b.log
