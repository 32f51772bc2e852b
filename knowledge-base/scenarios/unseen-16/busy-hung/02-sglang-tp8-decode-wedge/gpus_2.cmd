sleep 10; nvidia-smi --query-gpu=index,name,memory.used,memory.total,utilization.gpu,power.draw,temperature.gpu,pstate --format=csv,noheader
