systemctl cat sglang-llama.service
