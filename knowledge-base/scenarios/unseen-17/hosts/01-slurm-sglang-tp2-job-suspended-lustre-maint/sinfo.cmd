sinfo -R -n gpu-h100-07
