tail -n 60 /home/inference/sglang-gemma.log
