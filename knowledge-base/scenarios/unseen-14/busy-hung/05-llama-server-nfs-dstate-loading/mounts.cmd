grep -E ' nfs4? ' /proc/mounts
