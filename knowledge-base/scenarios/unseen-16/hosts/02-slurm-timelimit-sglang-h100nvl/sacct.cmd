sacct -j 48213 --format=JobID,JobName%20,User,State,ExitCode,Elapsed,Timelimit,NodeList%15
