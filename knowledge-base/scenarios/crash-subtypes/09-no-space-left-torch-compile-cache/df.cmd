df -h / /home /dev/shm
