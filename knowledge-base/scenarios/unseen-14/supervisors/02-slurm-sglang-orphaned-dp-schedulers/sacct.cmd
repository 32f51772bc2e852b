sacct -j 884213 --format=JobID,JobName%16,User,State,ExitCode,Elapsed,Timelimit,Start,End,NodeList
