tail -n 60 -- /srv/vllm/serve.log
