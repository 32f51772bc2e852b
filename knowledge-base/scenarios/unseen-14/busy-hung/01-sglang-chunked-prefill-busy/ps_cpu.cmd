ps -o pid,stat,time,etimes,args -p 48211,48402,48403,48404,48405,48406
