ps -o pid,stat,time,pcpu,args -p 41207,41391,41522,41523,41524,41525
