crictl ps -a --name sglang
