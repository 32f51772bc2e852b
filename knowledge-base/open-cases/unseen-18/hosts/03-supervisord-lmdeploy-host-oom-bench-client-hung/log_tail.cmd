tail -n 60 /var/log/supervisor/lmdeploy-internlm2.log
