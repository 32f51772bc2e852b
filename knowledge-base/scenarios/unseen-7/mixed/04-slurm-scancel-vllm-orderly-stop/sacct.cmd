sacct -j 481522 --format=JobID,JobName%16,State%20,ExitCode,Start,End,Elapsed,Timelimit,NodeList%12
