sacct -j 771204 --format=JobID,JobName,State,ExitCode,Elapsed,End
