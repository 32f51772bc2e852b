tail -n 60 /home/svc/run/glm-serve.log
