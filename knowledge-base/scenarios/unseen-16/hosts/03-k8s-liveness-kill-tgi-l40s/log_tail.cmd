tail -n 60 /var/log/pods/llm_tgi-llama70b-awq-6d9f7c8b5d-x2kqp_0c7d4e1a-93f2-4b55-a0d8-6e21f4b9c377/tgi/6.log
