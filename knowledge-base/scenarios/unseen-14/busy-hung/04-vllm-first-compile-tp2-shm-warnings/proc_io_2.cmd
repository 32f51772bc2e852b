cat /proc/71921/io /proc/71922/io
