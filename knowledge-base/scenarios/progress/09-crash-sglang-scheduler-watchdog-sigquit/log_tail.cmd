tail -n 60 /home/svc/sglang/serve.log
