sacct -j 48213 --format=JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode,Elapsed,Timelimit
