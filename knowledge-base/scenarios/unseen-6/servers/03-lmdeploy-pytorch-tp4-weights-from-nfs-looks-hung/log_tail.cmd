tail -n 60 /home/llmops/logs/lmdeploy-23333.log
