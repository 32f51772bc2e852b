journalctl -u llama-server --no-pager -b | grep -n -E 'Started|Stopp|listening|loading model|load_tensors|model loaded|main loop|error|failed|warmup' | tail -30
