tail -n 60 /srv/glm/logs/server.log
