tail -n 60 /var/log/lmdeploy/qwen32b.log
