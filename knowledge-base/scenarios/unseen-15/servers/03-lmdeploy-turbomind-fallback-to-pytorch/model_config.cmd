grep -A4 -E '"quantization_config"' /models/Qwen2.5-32B-Instruct-W8A8/config.json
