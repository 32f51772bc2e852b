docker ps -a --filter label=com.docker.compose.project=llm
