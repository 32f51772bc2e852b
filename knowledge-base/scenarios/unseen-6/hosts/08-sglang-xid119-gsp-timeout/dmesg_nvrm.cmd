dmesg -T 2>&1 | grep -E 'NVRM|Xid' | tail -20
