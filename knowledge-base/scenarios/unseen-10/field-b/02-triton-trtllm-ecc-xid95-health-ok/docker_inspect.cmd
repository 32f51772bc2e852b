docker inspect -f '{{.State.Status}} pid={{.State.Pid}} restarts={{.RestartCount}} oom={{.State.OOMKilled}} started={{.State.StartedAt}} devices={{json .HostConfig.DeviceRequests}}' trtllm-llama31
