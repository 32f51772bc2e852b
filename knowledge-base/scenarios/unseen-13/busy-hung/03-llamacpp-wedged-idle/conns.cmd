ss -tnp state established '( sport = :8080 )'
