grep -n -E 'input backend=|Fallback to|turbomind engine config' /var/log/lmdeploy/qwen32b.log | tail -6 | cut -c1-400
