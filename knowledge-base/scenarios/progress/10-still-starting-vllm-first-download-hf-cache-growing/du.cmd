du -sh /data/hf/hub/models--Qwen--Qwen2.5-72B-Instruct; sleep 30; du -sh /data/hf/hub/models--Qwen--Qwen2.5-72B-Instruct
