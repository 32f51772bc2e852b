docker inspect --format '{{json .State}} restarts={{.RestartCount}} policy={{.HostConfig.RestartPolicy.Name}} memory={{.HostConfig.Memory}}' frigate-genai-llama-1
