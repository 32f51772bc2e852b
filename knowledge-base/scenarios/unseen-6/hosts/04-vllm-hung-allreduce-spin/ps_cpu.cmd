ps -eo pid,stat,etimes,time,pcpu,wchan:24,args --sort=-time | head -9 | cut -c1-160
