pgrep -fa 'tritonserver|triton_python|mpirun'
