grep -n -E 'args|ERROR' /var/log/vllm.log
