docker ps -a --filter name=llama70b
