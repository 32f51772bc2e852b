grep ' /mnt/models ' /proc/mounts
