tail -n 60 /data/tgi/llama8b.log
