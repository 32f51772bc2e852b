tail -n 60 /var/log/triton/tritonserver.log
