scontrol show job 48213
