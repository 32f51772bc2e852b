grep -E '^(State|Threads|voluntary_ctxt_switches|nonvoluntary_ctxt_switches)' /proc/118352/status; cat /proc/118352/wchan; echo
