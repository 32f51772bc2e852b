docker logs tgi-qwen32b 2>&1 | grep -n -E 'Args \{|max_input_tokens|max_total_tokens|Connected|Shutting down|panicked|address already' | tail -30
