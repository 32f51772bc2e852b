kubectl get pods -n llm -o wide
