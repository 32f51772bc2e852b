pgrep -fa 'tritonserver|triton_python_backend_stub|python'
