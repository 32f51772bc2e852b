ps -o pid,stat,time,etime,args -p 8811,9032; sleep 30; ps -o pid,stat,time,etime,args -p 8811,9032
