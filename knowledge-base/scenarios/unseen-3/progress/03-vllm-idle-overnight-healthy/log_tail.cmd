tail -n 60 /var/log/vllm/team-chat.log
