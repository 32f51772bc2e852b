echo vllm:$(ss -Htn state established '( sport = :8000 )' | wc -l) litellm:$(ss -Htn state established '( sport = :4000 )' | wc -l)
