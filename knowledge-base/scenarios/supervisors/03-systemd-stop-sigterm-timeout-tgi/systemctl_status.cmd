systemctl status --no-pager -l tgi-mistral.service
