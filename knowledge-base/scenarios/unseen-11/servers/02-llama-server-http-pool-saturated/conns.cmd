ss -tnp '( sport = :8080 )'
