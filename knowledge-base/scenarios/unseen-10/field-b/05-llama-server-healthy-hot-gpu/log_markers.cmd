journalctl -u llama-server --since '-1h' --no-pager | grep -E 'error|Error|ERROR|failed|abort|GGML_ASSERT|CUDA error|listening|model loaded|POST .* [45][0-9][0-9]$' | tail -30
