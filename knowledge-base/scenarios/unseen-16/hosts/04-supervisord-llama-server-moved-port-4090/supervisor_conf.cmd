cat /etc/supervisor/conf.d/llama-coder.conf
