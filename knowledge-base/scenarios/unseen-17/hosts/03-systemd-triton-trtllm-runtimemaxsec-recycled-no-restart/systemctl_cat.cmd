systemctl cat tritonserver.service
