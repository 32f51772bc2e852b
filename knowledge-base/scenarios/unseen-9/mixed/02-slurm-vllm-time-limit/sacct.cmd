sacct -u evalteam -S 2026-10-20T00:00 --format=JobID,JobName,Partition,State,ExitCode,Start,Elapsed,Timelimit,NodeList
