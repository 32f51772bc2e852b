tail -n 60 /lustre/home/mkaur/jobs/logs/sgl-48213.log
