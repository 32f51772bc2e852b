journalctl -u tgi-mistral.service --no-pager -n 40
