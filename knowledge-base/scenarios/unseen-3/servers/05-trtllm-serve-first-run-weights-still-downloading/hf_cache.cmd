ls -la --time-style=+%H:%M:%S /data/hf-cache/hub/models--meta-llama--Llama-3.3-70B-Instruct/blobs/; du -sh /data/hf-cache/hub/models--meta-llama--Llama-3.3-70B-Instruct
