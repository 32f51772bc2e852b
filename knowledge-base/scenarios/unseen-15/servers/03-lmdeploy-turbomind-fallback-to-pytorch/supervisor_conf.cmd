cat /etc/supervisor/conf.d/lmdeploy-qwen.conf
