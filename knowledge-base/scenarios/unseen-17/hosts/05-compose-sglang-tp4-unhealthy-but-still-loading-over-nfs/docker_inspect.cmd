docker inspect --format '{{json .State}}' sglang
