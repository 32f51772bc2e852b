ps -eo pid,stat,etimes,time,pcpu,args --sort=-time | head -12 | cut -c1-160
