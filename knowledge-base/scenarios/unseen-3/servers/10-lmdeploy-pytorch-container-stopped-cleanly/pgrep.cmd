pgrep -fa 'lmdeploy|python'
