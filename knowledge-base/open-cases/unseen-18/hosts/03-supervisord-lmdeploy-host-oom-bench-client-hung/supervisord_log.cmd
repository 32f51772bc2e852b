tail -n 15 /var/log/supervisor/supervisord.log
