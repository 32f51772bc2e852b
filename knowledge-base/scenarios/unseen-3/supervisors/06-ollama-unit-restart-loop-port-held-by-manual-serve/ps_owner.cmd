ps -o user,pid,lstart,args -p 52104
