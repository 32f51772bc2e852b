docker inspect vllm-mistral --format '{{json .State}} {{json .Config.Entrypoint}} {{json .Config.Cmd}} {{json .HostConfig.RestartPolicy}} {{.HostConfig.Memory}}'
