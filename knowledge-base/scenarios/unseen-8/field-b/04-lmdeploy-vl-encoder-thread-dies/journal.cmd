journalctl -u lmdeploy-vl --since "2026-03-20 13:40" --no-pager
