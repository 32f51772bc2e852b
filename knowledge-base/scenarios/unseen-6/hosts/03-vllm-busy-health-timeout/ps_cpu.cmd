ps -eo pid,stat,etimes,time,pcpu,args --sort=-time | head -9 | cut -c1-160
