tail -n 60 /var/log/pods/inference_triton-llama31-8b-7c9d6f5b8-q4xkp_3f1c9a52-8d7e-4b0a-9c55-1e2f7a6b4d10/triton/0.log
