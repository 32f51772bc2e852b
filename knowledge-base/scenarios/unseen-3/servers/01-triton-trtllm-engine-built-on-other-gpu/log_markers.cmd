grep -n -E 'Started HTTPService|failed to load|error:|Signal \(|ERROR|UNAVAILABLE|already in use|Traceback' /srv/triton/logs/triton.log | tail -30
