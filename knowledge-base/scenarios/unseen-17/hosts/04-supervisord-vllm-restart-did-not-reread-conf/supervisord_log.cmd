tail -n 8 /var/log/supervisor/supervisord.log
