grep -n -E 'non-default args|vLLM API server version|Starting vLLM|Application startup complete|Traceback|Error|Shutting down|Killed|address already' /var/log/vllm/ocr-vl32b.log | tail -30
