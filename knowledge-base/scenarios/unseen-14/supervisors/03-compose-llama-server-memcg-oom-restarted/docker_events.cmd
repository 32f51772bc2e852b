docker events --since 2026-03-14T00:00:00 --until now --filter container=frigate-genai-llama-1 --filter event=oom --filter event=die --filter event=start
