free -g
