tail -n 60 /srv/sglang/dsv3.log
