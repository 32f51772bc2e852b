sacct -j 48213 --format=JobID,JobName%20,Partition,State,ExitCode,Start,End,Elapsed -P
