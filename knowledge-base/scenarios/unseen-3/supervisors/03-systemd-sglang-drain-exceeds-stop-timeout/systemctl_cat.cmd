systemctl cat sglang.service
