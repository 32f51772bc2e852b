sacct -u mkim -S 2026-04-01 --format=JobID,JobName%20,Partition,State,Elapsed,Timelimit,ExitCode,NodeList%15
