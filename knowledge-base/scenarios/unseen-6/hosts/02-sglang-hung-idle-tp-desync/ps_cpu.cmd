ps -eo pid,stat,etimes,time,pcpu,wchan:24,args --sort=-time | head -12 | cut -c1-160
