for i in 1 2; do grep -E '^rchar' /proc/5132/io; sleep 2; done
