sudo dmesg | tail -3
