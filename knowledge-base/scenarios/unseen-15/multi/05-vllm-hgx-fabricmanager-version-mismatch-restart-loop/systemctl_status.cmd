systemctl status vllm.service nvidia-fabricmanager.service --no-pager -l
