sacct -j 48213 --format=JobID,JobName%12,Partition,NNodes,NodeList%14,State,ExitCode,Start,End,Elapsed
