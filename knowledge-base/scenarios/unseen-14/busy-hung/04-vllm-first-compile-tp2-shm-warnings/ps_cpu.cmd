ps -o pid,stat,time,etimes,wchan:20,comm -p 71402,71688,71921,71922
