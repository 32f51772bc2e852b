dmesg -T | tail -20
