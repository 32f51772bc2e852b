docker inspect -f '{{.State.Status}} {{.State.StartedAt}} restarts={{.RestartCount}} policy={{.HostConfig.RestartPolicy.Name}} oom={{.State.OOMKilled}} exit={{.State.ExitCode}}' ollama
