cat /srv/llm/compose.yaml
