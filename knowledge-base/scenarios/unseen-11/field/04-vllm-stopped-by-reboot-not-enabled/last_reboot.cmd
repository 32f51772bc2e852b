last -x -n 4 reboot shutdown
