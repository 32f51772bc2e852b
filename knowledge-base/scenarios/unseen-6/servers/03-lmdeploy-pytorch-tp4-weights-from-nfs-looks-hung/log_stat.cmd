stat -c '%y %s' /home/llmops/logs/lmdeploy-23333.log
