df -h /mnt/models
