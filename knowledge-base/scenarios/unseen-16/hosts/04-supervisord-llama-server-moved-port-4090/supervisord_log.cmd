tail -n 20 /var/log/supervisor/supervisord.log
