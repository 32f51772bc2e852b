pgrep -fa 'lmdeploy|api_server|python'
