ps -o pid,stat,time,wchan:22,comm -p 30433,30471,30472,30539
