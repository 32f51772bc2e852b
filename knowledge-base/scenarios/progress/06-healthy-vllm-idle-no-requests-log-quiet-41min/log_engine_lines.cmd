grep 'Engine 000' /home/ml/logs/gemma.log | tail -20
