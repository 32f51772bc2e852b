tail -n 60 /srv/vllm/logs/finetune-v3.log
