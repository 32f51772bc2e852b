kubectl -n search get events --sort-by=.lastTimestamp | tail -8
