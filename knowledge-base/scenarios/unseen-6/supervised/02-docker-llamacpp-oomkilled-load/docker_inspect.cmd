docker inspect llama70b
