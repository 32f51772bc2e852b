tail -n 60 /srv/tgi/llama70b.log
