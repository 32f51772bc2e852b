tail -n 6 /var/log/supervisor/supervisord.log
