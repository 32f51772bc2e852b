du -sm /root/.cache/huggingface/hub/models--meta-llama--Llama-3.1-70B-Instruct; ls -l --time-style=+%T /root/.cache/huggingface/hub/models--meta-llama--Llama-3.1-70B-Instruct/blobs | grep incomplete
