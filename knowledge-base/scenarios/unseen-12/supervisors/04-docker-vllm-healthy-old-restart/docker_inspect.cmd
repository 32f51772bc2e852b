docker inspect -f '{{.Name}} RestartCount={{.RestartCount}} RestartPolicy={{.HostConfig.RestartPolicy.Name}} Created={{.Created}}{{println}}{{json .State}}' vllm-qwen3
