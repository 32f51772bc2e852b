grep -n -E 'Started HTTPService|failed to load|error:|Signal \(|ERROR|UNAVAILABLE|already in use|Traceback' /srv/triton/logs/nemo-v2.log | tail -30
