docker inspect --format '{{.Name}} {{.Config.Image}} RestartCount={{.RestartCount}} RestartPolicy={{.HostConfig.RestartPolicy.Name}} {{json .State}}' llama70b
