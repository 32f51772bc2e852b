kubectl -n llm-serving describe pod tgi-llama33-70b-7c9d5f8b6-kq2vz
