kubectl -n llm-serving logs tgi-llama33-70b-7c9d5f8b6-kq2vz -c tgi --previous --tail=60
