journalctl -u ollama --since "2026-05-01 12:00" --no-pager | grep -E 'starting runner|ggml_cuda_init|offloaded|device.go|runner started|api/chat'
