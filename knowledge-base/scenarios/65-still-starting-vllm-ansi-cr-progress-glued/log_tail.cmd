tail -n 60 /home/lena/vllm-run.typescript
