tail -n 60 /srv/vlm/logs/lmdeploy-internvl3-38b.log
