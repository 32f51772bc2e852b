tail -n 60 /home/kim/mistral24b/serve.log
