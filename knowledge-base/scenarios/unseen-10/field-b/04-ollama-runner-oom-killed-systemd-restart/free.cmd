free -h
