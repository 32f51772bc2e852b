docker inspect --format '{{.Name}} {{.Id}} created={{.Created}} started={{.State.StartedAt}} restarts={{.RestartCount}} image={{.Config.Image}} cmd={{.Config.Cmd}}' tgi-qwen32b
