tail -n 60 /home/raj/r1-70b.log
