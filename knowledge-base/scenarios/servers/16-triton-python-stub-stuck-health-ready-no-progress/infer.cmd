curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 10 -X POST http://127.0.0.1:8000/v2/models/whisper_py/infer -d @/tmp/probe_1s_silence.json
