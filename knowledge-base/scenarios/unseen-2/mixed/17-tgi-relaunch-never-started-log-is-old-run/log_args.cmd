grep -n -A24 'text_generation_launcher: Args {' /srv/tgi/logs/mistral-small.log | tail -26
