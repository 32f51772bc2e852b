docker exec ollama ollama ps
