stat -c '%y %n' /etc/supervisor/conf.d/vllm.conf; cat /etc/supervisor/conf.d/vllm.conf
