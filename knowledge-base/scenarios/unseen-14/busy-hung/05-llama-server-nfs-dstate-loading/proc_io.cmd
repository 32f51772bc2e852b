cat /proc/18842/io
