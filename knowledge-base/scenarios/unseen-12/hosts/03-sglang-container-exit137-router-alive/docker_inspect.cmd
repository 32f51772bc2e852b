docker inspect --format '{{json .State}} restart={{.HostConfig.RestartPolicy.Name}} init={{json .HostConfig.Init}} stop_timeout={{json .Config.StopTimeout}}' sglang-qwen3-32b
