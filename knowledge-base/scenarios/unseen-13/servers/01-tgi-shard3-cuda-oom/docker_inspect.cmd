docker inspect --format '{{json .State}} {{json .HostConfig.DeviceRequests}}' tgi-llama70b
