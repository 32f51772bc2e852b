docker run --rm --gpus all -p 8000:8000 -v /srv/hf:/root/.cache/huggingface vllm/vllm-openai:v0.15.0 --model Qwen/Qwen3-8B --max-model-len 16384
