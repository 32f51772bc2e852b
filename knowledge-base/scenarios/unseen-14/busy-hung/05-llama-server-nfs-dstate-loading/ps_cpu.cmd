ps -o pid,stat,time,etimes,wchan:24,comm -p 18842
