tail -n 60 /root/logs/dsv3-0324.log
