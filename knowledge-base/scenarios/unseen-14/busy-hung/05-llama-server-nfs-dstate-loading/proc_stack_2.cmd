cat /proc/18842/stack
