systemd-analyze cat-config systemd/logind.conf | grep -E '^(# /|\[|[A-Za-z])'
