sudo -n dmesg -T 2>&1 | tail -20
