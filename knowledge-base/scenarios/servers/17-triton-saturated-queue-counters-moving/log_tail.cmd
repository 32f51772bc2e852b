tail -n 60 /var/log/triton/asr.log
