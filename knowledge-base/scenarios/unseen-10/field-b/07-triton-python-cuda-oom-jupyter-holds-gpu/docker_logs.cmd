docker logs triton-mistral
