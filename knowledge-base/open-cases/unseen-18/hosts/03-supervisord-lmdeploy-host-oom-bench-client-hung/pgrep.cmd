pgrep -fa 'lmdeploy|turbomind|python'
